import { describe, expect, it } from 'vitest'
import { canEditJob, canUseSharedKey, canViewJob } from './rules.ts'
import { CALLER_KINDS, JOB_KINDS, TRUTH_TABLE, tableCaller, tableJob } from './truth-table.ts'

describe('the truth table', () => {
  it('has one row for every caller and job kind', () => {
    const cells = TRUTH_TABLE.map((row) => `${row.caller}/${row.job}`)
    expect(new Set(cells).size).toBe(CALLER_KINDS.length * JOB_KINDS.length)
    expect(cells).toHaveLength(CALLER_KINDS.length * JOB_KINDS.length)
  })

  it.each(TRUTH_TABLE)('$caller on a $job job: view $view, edit $edit', (row) => {
    const caller = tableCaller(row.caller)
    const job = tableJob(row.job)
    expect(canViewJob(caller, job)).toBe(row.view)
    expect(canEditJob(caller, job)).toBe(row.edit)
    // A JobView carries createdBy as an object; the rules read both shapes.
    const view = { ...job, createdBy: { id: job.createdBy } }
    expect(canViewJob(caller, view)).toBe(row.view)
    expect(canEditJob(caller, view)).toBe(row.edit)
  })
})

describe('canUseSharedKey', () => {
  it.each([
    ['owner', 'shared', true],
    ['admin', 'shared', true],
    ['member', 'shared', false],
    ['creator', 'shared', false],
    ['outsider', 'shared', false],
    ['owner', 'personal', false],
    ['admin', 'personal', false],
    ['creator', 'personal', false],
  ] as const)('%s on a %s job → %s', (kind, jobKind, expected) => {
    expect(canUseSharedKey(tableCaller(kind), tableJob(jobKind))).toBe(expected)
  })
})

describe('organisation boundary', () => {
  it('an admin of another organisation sees nothing, even a job they created there once', () => {
    const job = { orgId: 'org_a', scope: 'personal' as const, createdBy: 'u_x' }
    const sameUserOtherOrg = { userId: 'u_x', orgId: 'org_b', role: 'owner' as const }
    expect(canViewJob(sameUserOtherOrg, job)).toBe(false)
    expect(canEditJob(sameUserOtherOrg, job)).toBe(false)
    expect(canViewJob(sameUserOtherOrg, { ...job, scope: 'shared' })).toBe(false)
  })
})
