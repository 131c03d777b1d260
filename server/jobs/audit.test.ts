import { JOB_DEFAULTS, JOB_FIELD_KEYS } from './fields.ts'
import { describe, expect, it } from 'vitest'
import { auditActionFor, canonicalJson, creationChanges, summarizeForAudit } from './audit.ts'
import { escapeLike } from './store.ts'

describe('audit helpers', () => {
  it('names pause/resume changes enable/disable and everything else update', () => {
    expect(auditActionFor({ enabled: { from: true, to: false } }, false)).toBe('disable')
    expect(auditActionFor({ enabled: { from: false, to: true } }, true)).toBe('enable')
    expect(
      auditActionFor({ suspendedReason: { from: 'x', to: null }, createdBy: { from: 'a', to: 'b' } }, true),
    ).toBe('enable')
    expect(
      auditActionFor({ enabled: { from: true, to: false }, schedule: { from: 'a', to: 'b' } }, false),
    ).toBe('update')
    expect(auditActionFor({ createdBy: { from: 'a', to: 'b' } }, true)).toBe('update')
  })

  it('keeps short values and shortens long strings', () => {
    expect(summarizeForAudit('short')).toBe('short')
    expect(summarizeForAudit(42)).toBe(42)
    expect(summarizeForAudit('y'.repeat(4001))).toMatch(/… \[4001 characters in all\]$/)
  })

  it('records every field of a new job', () => {
    const changes = creationChanges({
      name: 'daily',
      scope: 'shared',
      schedule: '0 7 * * *',
      timezone: 'UTC',
      ...JOB_DEFAULTS,
      instructions: 'Go',
      extra: {},
    })
    expect(Object.keys(changes).sort()).toEqual(['name', 'scope', ...JOB_FIELD_KEYS].sort())
    expect(changes.name).toEqual({ from: null, to: 'daily' })
  })

  it('compares JSON regardless of key order, but not of list order', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe(canonicalJson({ a: { c: 3, d: 2 }, b: 1 }))
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]))
  })

  it('escapes LIKE wildcards so search text matches literally', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\')
  })
})
