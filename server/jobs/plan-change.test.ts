import { describe, expect, it } from 'vitest'
import type { Caller } from '../auth/caller.ts'
import { HttpError } from '../lib/errors.ts'
import { nextRun } from '../cron/cron.ts'
import { JOB_DEFAULTS } from './fields.ts'
import { planJobChange, type JobChangeContext } from './plan-change.ts'
import type { JobRow } from './store.ts'

const now = new Date('2026-03-02T10:15:30Z')

const caller = (userId: string, role: Caller['role'] = 'member'): Caller => ({
  userId,
  email: `${userId}@example.com`,
  name: userId,
  timezone: null,
  orgId: 'org_a',
  orgName: 'A',
  role,
})

const job = (over: Partial<JobRow> = {}): JobRow => ({
  id: 'job_1',
  orgId: 'org_a',
  scope: 'shared',
  name: 'daily',
  createdBy: 'cleo',
  ...JOB_DEFAULTS,
  schedule: '0 7 * * *',
  timezone: 'Europe/Berlin',
  instructions: 'Post the numbers.',
  extra: { team: 'growth', tags: ['a'] },
  version: 4,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-01T00:00:00Z'),
  nextRunAt: new Date('2026-03-03T06:00:00Z'),
  lastRunAt: null,
  lastStatus: null,
  lastError: null,
  consecutiveFailures: 0,
  lastDeniedCommands: 0,
  suspendedReason: null,
  stateUpdatedAt: null,
  ...over,
})

const plan = (over: Partial<JobChangeContext>) =>
  planJobChange({
    caller: caller('cleo'),
    job: job(),
    change: {},
    now,
    creatorIsMember: true,
    liftsSuspension: true,
    ...over,
  })

const httpError = (fn: () => unknown) => {
  try {
    fn()
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, field: err.field }
    throw err
  }
  throw new Error('expected an HttpError')
}

describe('planJobChange', () => {
  it('returns null when nothing changes (same values, extra keys in another order)', () => {
    expect(plan({ change: { schedule: '0 7 * * *', extra: { tags: ['a'], team: 'growth' } } })).toBeNull()
    expect(plan({ change: { enabled: true } })).toBeNull()
  })

  it('bumps the version, audits from/to and recomputes the next run from now in the job zone', () => {
    const p = plan({ change: { schedule: '30 9 * * *' } })!
    expect(p.set.version).toBe(5)
    expect(p.set.updatedAt).toBe(now)
    expect(p.changes).toEqual({ schedule: { from: '0 7 * * *', to: '30 9 * * *' } })
    expect(p.action).toBe('update')
    expect(p.set.nextRunAt).toEqual(nextRun('30 9 * * *', { after: now, timezone: 'Europe/Berlin' }))
    expect(p.set.nextRunAt?.toISOString()).toBe('2026-03-03T08:30:00.000Z')
  })

  it('leaves the next run alone when only the instructions change', () => {
    const p = plan({ change: { instructions: 'Post the numbers twice.' } })!
    expect('nextRunAt' in p.set).toBe(false)
    expect(p.set.createdBy).toBe('cleo')
    expect(p.note).toBeNull()
  })

  it('makes a non-creator who rewrites the instructions the creator, and says so', () => {
    for (const runAs of ['creator', 'shared'] as const) {
      const p = plan({
        caller: caller('adam', 'admin'),
        job: job({ runAs }),
        change: { instructions: 'Mine now.' },
      })!
      expect(p.set.createdBy).toBe('adam')
      expect(p.changes.createdBy).toEqual({ from: 'cleo', to: 'adam' })
      expect(p.note).toMatch(/became the job's creator/)
    }
  })

  it('makes a non-creator who changes the skills or MCP servers the creator too: they are the prompt', () => {
    const skills = plan({ caller: caller('adam', 'admin'), change: { skills: ['house-style'] } })!
    expect(skills.set.createdBy).toBe('adam')
    expect(skills.note).toMatch(/changed the skills and became the job's creator/)
    const both = plan({ caller: caller('adam', 'admin'), change: { mcp: ['crm'], instructions: 'Mine.' } })!
    expect(both.set.createdBy).toBe('adam')
    expect(both.note).toMatch(/changed the instructions and MCP servers and became/)
    // The creator changing their own skills stays the creator, with no note.
    const own = plan({ change: { skills: ['house-style'] } })!
    expect(own.set.createdBy).toBe('cleo')
    expect(own.note).toBeNull()
  })

  it('keeps the creator when an admin changes only the schedule', () => {
    const p = plan({ caller: caller('adam', 'admin'), change: { schedule: '*/5 * * * *' } })!
    expect(p.set.createdBy).toBe('cleo')
    expect(p.changes.createdBy).toBeUndefined()
  })

  it('refuses runAs shared on a personal job (400) and from a member (403)', () => {
    expect(httpError(() => plan({ job: job({ scope: 'personal' }), change: { runAs: 'shared' } }))).toEqual({
      status: 400,
      field: 'runAs',
    })
    expect(httpError(() => plan({ change: { runAs: 'shared' } }))).toEqual({ status: 403, field: 'runAs' })
    expect(plan({ caller: caller('olga', 'owner'), change: { runAs: 'shared' } })?.set.runAs).toBe('shared')
  })

  it('lets a member pause or switch off the org key on their job, but not change what it spends', () => {
    const spending = job({ runAs: 'shared' })
    expect(httpError(() => plan({ job: spending, change: { schedule: '* * * * *' } }))).toEqual({
      status: 403,
      field: 'runAs',
    })
    expect(plan({ job: spending, change: { enabled: false } })?.action).toBe('disable')
    expect(plan({ job: spending, change: { runAs: 'creator', schedule: '* * * * *' } })?.set.runAs).toBe(
      'creator',
    )
  })

  it('pausing clears the next run; resuming computes it from now', () => {
    const paused = plan({ change: { enabled: false } })!
    expect(paused.set.nextRunAt).toBeNull()
    expect(paused.action).toBe('disable')
    const resumed = plan({ job: job({ enabled: false, nextRunAt: null }), change: { enabled: true } })!
    expect(resumed.action).toBe('enable')
    expect(resumed.set.nextRunAt).toEqual(nextRun('0 7 * * *', { after: now, timezone: 'Europe/Berlin' }))
  })

  it('resuming lifts a suspension and resets the failure count', () => {
    const suspended = job({
      suspendedReason: 'Failed 10 times in a row',
      consecutiveFailures: 10,
      nextRunAt: null,
    })
    const p = plan({ job: suspended, change: { enabled: true } })!
    expect(p.set).toMatchObject({ suspendedReason: null, consecutiveFailures: 0, stateUpdatedAt: now })
    expect(p.set.nextRunAt).toBeInstanceOf(Date)
    expect(p.changes.suspendedReason).toEqual({ from: 'Failed 10 times in a row', to: null })
    expect(p.action).toBe('enable')
  })

  it('a job file saying enabled: true does not lift a suspension, and edits keep it paused', () => {
    const suspended = job({ suspendedReason: 'Failed 10 times in a row', nextRunAt: null })
    expect(plan({ job: suspended, change: { enabled: true }, liftsSuspension: false })).toBeNull()
    const edited = plan({ job: suspended, change: { schedule: '0 8 * * *' }, liftsSuspension: false })!
    expect(edited.set.nextRunAt).toBeNull()
    expect('suspendedReason' in edited.set).toBe(false)
  })

  it('hands a job whose creator left to the admin who resumes it', () => {
    const orphan = job({ suspendedReason: 'Its creator left the organisation', nextRunAt: null })
    const p = plan({
      caller: caller('adam', 'admin'),
      job: orphan,
      change: { enabled: true },
      creatorIsMember: false,
    })!
    expect(p.set.createdBy).toBe('adam')
    expect(p.note).toMatch(/took it over/)
    expect(p.action).toBe('enable')
  })

  it('shortens very long instructions in the audit trail but stores them whole', () => {
    const long = 'x'.repeat(10_000)
    const p = plan({ change: { instructions: long } })!
    expect(p.set.instructions).toBe(long)
    expect(String(p.changes.instructions?.to)).toMatch(/^x{4000}… \[10000 characters in all\]$/)
  })
})
