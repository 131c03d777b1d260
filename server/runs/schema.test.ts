import { describe, expect, it } from 'vitest'
import { RunListQuery, toRun, type RunRow } from './schema.ts'

const row: RunRow = {
  id: 'run_1',
  jobId: 'job_1',
  orgId: 'org_1',
  trigger: 'schedule',
  scheduledFor: new Date('2026-01-05T07:00:00Z'),
  attempt: 1,
  status: 'success',
  reason: null,
  notBefore: null,
  runAsUserId: 'usr_1',
  keySource: null,
  threadId: 'thr_1',
  instance: 'host-1-2-ab',
  leaseExpiresAt: null,
  startedAt: new Date('2026-01-05T07:00:00.012Z'),
  finishedAt: new Date('2026-01-05T07:00:03.512Z'),
  error: null,
  inputTokens: 120,
  outputTokens: 30,
  costUsd: null,
  reservedUsd: '0',
  model: null,
  deniedCommands: 1,
  createdAt: new Date('2026-01-05T07:00:00.010Z'),
}

describe('toRun', () => {
  it('is the public Run shape, exactly', () => {
    expect(toRun(row)).toEqual({
      id: 'run_1',
      jobId: 'job_1',
      trigger: 'schedule',
      scheduledFor: '2026-01-05T07:00:00.000Z',
      status: 'success',
      reason: null,
      attempt: 1,
      startedAt: '2026-01-05T07:00:00.012Z',
      finishedAt: '2026-01-05T07:00:03.512Z',
      durationMs: 3_500,
      error: null,
      usage: { inputTokens: 120, outputTokens: 30, costUsd: null, model: null },
      instance: 'host-1-2-ab',
      deniedCommands: 1,
    })
  })
  it('reports the stored cost estimate as a number', () => {
    expect(toRun({ ...row, costUsd: '0.000810' }).usage).toEqual({
      inputTokens: 120,
      outputTokens: 30,
      costUsd: 0.00081,
      model: null,
    })
  })
  it('has no duration for a run that never started', () => {
    expect(toRun({ ...row, status: 'missed', startedAt: null, instance: null }).durationMs).toBeNull()
  })
})

describe('RunListQuery', () => {
  it('defaults to 50 and accepts a run id or an ISO time as the cursor', () => {
    expect(RunListQuery.parse({})).toEqual({ limit: 50 })
    expect(RunListQuery.parse({ limit: '10', before: 'run_abc123' })).toEqual({
      limit: 10,
      before: 'run_abc123',
    })
    expect(RunListQuery.parse({ before: '2026-01-05T07:00:00Z' }).before).toEqual(
      new Date('2026-01-05T07:00:00Z'),
    )
  })
  it('rejects nonsense', () => {
    expect(RunListQuery.safeParse({ limit: '0' }).success).toBe(false)
    expect(RunListQuery.safeParse({ limit: 'many' }).success).toBe(false)
    expect(RunListQuery.safeParse({ before: 'yesterday' }).success).toBe(false)
  })
})
