import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { HttpError } from '../lib/errors.ts'
import { parseInput } from '../lib/validate.ts'
import { validateCron } from '../cron/cron.ts'
import {
  CatchUp,
  Enabled,
  Extra,
  Instructions,
  JobCreateInput,
  JobListQuery,
  JobName,
  JobUpdateInput,
  MAX_INSTRUCTIONS,
  Overlap,
  Retries,
  RunAs,
  Schedule,
  Scope,
  TimeoutMinutes,
  MaxCostUsd,
  Timezone,
  toJsonValue,
} from './schema.ts'

/** Runs `fn` and returns the HttpError it throws; fails the test if it throws nothing or something else. */
function httpError(fn: () => unknown): HttpError {
  try {
    fn()
  } catch (err) {
    if (err instanceof HttpError) return err
    throw err
  }
  throw new Error('expected an HttpError, got success')
}

// Each field schema is wrapped so the error names the field, as it does inside an input object.
const field = (name: string, schema: z.ZodType) => (value: unknown) =>
  parseInput(z.object({ [name]: schema }), { [name]: value })

describe('field schemas', () => {
  const valid: [string, z.ZodType, unknown, unknown][] = [
    ['name', JobName, 'a', 'a'],
    ['name', JobName, 'daily-signups', 'daily-signups'],
    ['name', JobName, '0-report', '0-report'],
    ['name', JobName, 'a'.repeat(63), 'a'.repeat(63)],
    ['schedule', Schedule, '0 7 * * 1-5', '0 7 * * 1-5'],
    ['schedule', Schedule, ' */5 * * * * ', '*/5 * * * *'],
    ['schedule', Schedule, '@daily', '@daily'],
    ['timezone', Timezone, 'Europe/Berlin', 'Europe/Berlin'],
    ['timezone', Timezone, 'UTC', 'UTC'],
    ['instructions', Instructions, '  Post the numbers.\n', 'Post the numbers.'],
    ['instructions', Instructions, 'x'.repeat(MAX_INSTRUCTIONS), 'x'.repeat(MAX_INSTRUCTIONS)],
    ['enabled', Enabled, false, false],
    ['scope', Scope, 'shared', 'shared'],
    ['runAs', RunAs, 'creator', 'creator'],
    ['catchUp', CatchUp, 'skip', 'skip'],
    ['overlap', Overlap, 'queue', 'queue'],
    ['retries', Retries, 0, 0],
    ['retries', Retries, 5, 5],
    ['timeoutMinutes', TimeoutMinutes, 1, 1],
    ['timeoutMinutes', TimeoutMinutes, 60, 60],
    ['maxCostUsd', MaxCostUsd, 0.05, 0.05],
    ['maxCostUsd', MaxCostUsd, null, null],
  ]
  it.each(valid)('%s accepts %j', (name, schema, input, output) => {
    expect(field(name, schema)(input)).toEqual({ [name]: output })
  })

  const invalid: [string, z.ZodType, unknown, RegExp][] = [
    ['name', JobName, '', /slug/],
    ['name', JobName, '-daily', /slug/],
    ['name', JobName, 'Daily', /slug/],
    ['name', JobName, 'daily_signups', /slug/],
    ['name', JobName, 'daily signups', /slug/],
    ['name', JobName, 'a'.repeat(64), /slug/],
    ['name', JobName, 7, /must be a string/],
    ['schedule', Schedule, '0 25 * * *', /./],
    ['schedule', Schedule, '0 0 7 * * 1-5', /./],
    ['schedule', Schedule, 'every day', /./],
    ['schedule', Schedule, '', /./],
    ['schedule', Schedule, 5, /cron expression string/],
    ['schedule', Schedule, undefined, /is required/],
    ['timezone', Timezone, 'Mars/Olympus_Mons', /unknown time zone "Mars\/Olympus_Mons"/],
    ['timezone', Timezone, 1, /IANA/],
    ['instructions', Instructions, '', /must not be empty/],
    ['instructions', Instructions, ' \n\t ', /must not be empty/],
    ['instructions', Instructions, 'x'.repeat(MAX_INSTRUCTIONS + 1), /at most 60000/],
    ['enabled', Enabled, 'yes', /true or false/],
    ['enabled', Enabled, 1, /true or false/],
    ['scope', Scope, 'public', /"personal" or "shared"/],
    ['runAs', RunAs, 'root', /"creator" or "shared"/],
    ['catchUp', CatchUp, 'all', /"latest" or "skip"/],
    ['overlap', Overlap, 'parallel', /"skip" or "queue"/],
    ['retries', Retries, -1, /at least 0/],
    ['retries', Retries, 6, /at most 5/],
    ['retries', Retries, 1.5, /whole number from 0 to 5/],
    ['retries', Retries, '2', /whole number from 0 to 5/],
    ['timeoutMinutes', TimeoutMinutes, 0, /at least 1/],
    ['timeoutMinutes', TimeoutMinutes, 61, /at most 60/],
    ['maxCostUsd', MaxCostUsd, 0, /more than 0/],
    ['maxCostUsd', MaxCostUsd, '1', /amount in US dollars/],
  ]
  it.each(invalid)('%s rejects %j', (name, schema, input, message) => {
    const err = httpError(() => field(name, schema)(input))
    expect(err).toMatchObject({ status: 400, code: 'bad_request', field: name })
    expect(err.message).toMatch(new RegExp(`^${name}: `))
    expect(err.message).toMatch(message)
  })

  it("uses the cron validator's reason as the schedule message", () => {
    const reason = validateCron('0 25 * * *')
    if (reason.ok) throw new Error('expected 0 25 * * * to be invalid')
    const err = httpError(() => field('schedule', Schedule)('0 25 * * *'))
    expect(err.message).toBe(`schedule: ${reason.message}`)
  })
})

describe('JobCreateInput', () => {
  const minimal = { name: 'daily', schedule: '0 7 * * *', instructions: 'Post the numbers.' }

  it('fills in the defaults and leaves the timezone to the service', () => {
    expect(parseInput(JobCreateInput, minimal)).toEqual({
      ...minimal,
      enabled: true,
      scope: 'personal',
      runAs: 'creator',
      catchUp: 'latest',
      overlap: 'skip',
      retries: 0,
      timeoutMinutes: 10,
      maxCostUsd: null,
      environment: null,
      harness: 'builtin',
      mcp: null,
      skills: null,
      agentMayEditJobs: false,
      notify: null,
      alertAfterFailures: 2,
      expectSuccessWithin: null,
      extra: {},
    })
  })

  it('keeps every field it is given', () => {
    const full = {
      ...minimal,
      timezone: 'Europe/Berlin',
      enabled: false,
      scope: 'shared',
      runAs: 'shared',
      catchUp: 'skip',
      overlap: 'queue',
      retries: 3,
      timeoutMinutes: 30,
      maxCostUsd: 1.5,
      environment: 'reports',
      harness: 'claude-code',
      agentMayEditJobs: true,
      notify: { onSuccess: ['slack:team'], onFailure: [] },
      alertAfterFailures: 5,
      expectSuccessWithin: '2d',
      mcp: ['docs'],
      skills: ['signup-report'],
      extra: { owner: 'growth', tags: ['a', 'b'], nested: { deep: [1, null, true] } },
    }
    expect(parseInput(JobCreateInput, full)).toEqual(full)
  })

  const bad: [string, unknown, string | undefined, RegExp][] = [
    ['no body', null, undefined, /expected object/],
    ['a list', [minimal], undefined, /expected object/],
    ['missing name', { ...minimal, name: undefined }, 'name', /^name: /],
    ['missing schedule', { ...minimal, schedule: undefined }, 'schedule', /^schedule: is required/],
    ['missing instructions', { ...minimal, instructions: undefined }, 'instructions', /^instructions: /],
    ['an unknown key', { ...minimal, colour: 'red' }, 'colour', /^colour: unknown field$/],
    ['several unknown keys', { ...minimal, a: 1, b: 2 }, 'a', /^a: unknown field \(and 1 more: b\)$/],
    ['createdBy in the body', { ...minimal, createdBy: 'x@example.com' }, 'createdBy', /unknown field/],
    ['orgId in the body', { ...minimal, orgId: 'org_1' }, 'orgId', /unknown field/],
    ['a bad zone', { ...minimal, timezone: 'Nowhere/Land' }, 'timezone', /unknown time zone/],
    ['retries as a string', { ...minimal, retries: '3' }, 'retries', /whole number/],
    ['extra as a list', { ...minimal, extra: [1] }, 'extra', /^extra: /],
    ['a reserved extra key', { ...minimal, extra: { schedule: 'x' } }, 'extra.schedule', /reserved/],
    ['a managed extra key', { ...minimal, extra: { lastRun: 'x' } }, 'extra.lastRun', /reserved/],
    ['an infinite number', { ...minimal, extra: { a: { b: [1, Infinity] } } }, 'extra.a.b.1', /finite/],
  ]
  it.each(bad)('rejects %s', (_, input, fieldName, message) => {
    const err = httpError(() => parseInput(JobCreateInput, input))
    expect(err).toMatchObject({ status: 400, code: 'bad_request', field: fieldName })
    expect(err.message).toMatch(message)
  })
})

describe('JobUpdateInput', () => {
  it('returns only the keys sent, with no defaults', () => {
    expect(parseInput(JobUpdateInput, { enabled: false })).toEqual({ enabled: false })
    expect(parseInput(JobUpdateInput, { schedule: ' @hourly ' })).toEqual({ schedule: '@hourly' })
  })

  const bad: [string, unknown, string | undefined, RegExp][] = [
    ['an empty object', {}, undefined, /^Nothing to update/],
    ['only undefined values', { enabled: undefined }, undefined, /^Nothing to update/],
    ['a rename', { name: 'other' }, 'name', /^name: unknown field$/],
    ['a scope change', { scope: 'shared' }, 'scope', /unknown field/],
    ['a bad cron', { schedule: '61 * * * *' }, 'schedule', /^schedule: /],
    ['empty instructions', { instructions: '  ' }, 'instructions', /must not be empty/],
    ['enabled as a string', { enabled: 'false' }, 'enabled', /true or false/],
    ['timeout too long', { timeoutMinutes: 120 }, 'timeoutMinutes', /at most 60/],
    ['a negative cost cap', { maxCostUsd: -1 }, 'maxCostUsd', /more than 0/],
  ]
  it.each(bad)('rejects %s', (_, input, fieldName, message) => {
    const err = httpError(() => parseInput(JobUpdateInput, input))
    expect(err).toMatchObject({ status: 400, code: 'bad_request', field: fieldName })
    expect(err.message).toMatch(message)
  })
})

describe('JobListQuery', () => {
  const good: [unknown, unknown][] = [
    [{}, { scope: 'all' }],
    [{ scope: '' }, { scope: 'all' }],
    [
      { scope: 'shared', q: ' report ', status: 'failing' },
      { scope: 'shared', q: 'report', status: 'failing' },
    ],
    [{ q: '', status: '' }, { scope: 'all' }],
    [{ scope: 'personal', page: '2' }, { scope: 'personal' }],
  ]
  it.each(good)('reads %j', (input, output) => {
    const parsed = parseInput(JobListQuery, input)
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(output)
  })

  const bad: [unknown, string][] = [
    [{ scope: 'everyone' }, 'scope'],
    [{ status: 'broken' }, 'status'],
    [{ q: 'x'.repeat(201) }, 'q'],
    [{ q: ['a', 'b'] }, 'q'],
  ]
  it.each(bad)('rejects %j', (input, fieldName) => {
    expect(httpError(() => parseInput(JobListQuery, input))).toMatchObject({ status: 400, field: fieldName })
  })
})

describe('toJsonValue', () => {
  it('turns Dates into ISO strings and copies the rest', () => {
    const input = { when: new Date('2024-01-02T00:00:00Z'), list: [{ at: new Date(0) }] }
    expect(toJsonValue(input)).toEqual({
      ok: true,
      value: { when: '2024-01-02T00:00:00.000Z', list: [{ at: '1970-01-01T00:00:00.000Z' }] },
    })
  })

  it('keeps a "__proto__" key as data', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}}') as unknown
    const result = toJsonValue(input)
    if (!result.ok) throw new Error(result.message)
    expect(Object.keys(result.value as object)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('stops at cycles and at shared references that expand too far', () => {
    const cycle: unknown[] = []
    cycle.push(cycle)
    expect(toJsonValue({ a: cycle })).toMatchObject({ ok: false, path: ['a'], message: /nested too deeply/ })
    let bomb: unknown = ['x', 'x', 'x', 'x']
    for (let i = 0; i < 10; i++) bomb = [bomb, bomb, bomb, bomb]
    expect(toJsonValue({ bomb })).toMatchObject({ ok: false, path: ['bomb'], message: /too large/ })
  })

  it('names the path of a value JSON cannot hold', () => {
    expect(toJsonValue({ a: [1, { b: NaN }] })).toMatchObject({ ok: false, path: ['a', 1, 'b'] })
    expect(toJsonValue({ a: Buffer.from('hi') })).toMatchObject({ ok: false, path: ['a'] })
    expect(toJsonValue({ a: new Date('nope') })).toMatchObject({ ok: false, path: ['a'], message: /date/ })
  })

  it('is what Extra checks', () => {
    expect(Extra.safeParse({ ok: [1, 'two', null, { three: false }] }).success).toBe(true)
  })
})

describe('tool docs', () => {
  // The agent sees these schemas as JSON Schema: every property needs a description.
  const schemas: [string, z.ZodType, string[]][] = [
    ['JobCreateInput', JobCreateInput, ['name', 'schedule', 'instructions']],
    ['JobUpdateInput', JobUpdateInput, []],
    ['JobListQuery', JobListQuery, []],
  ]
  it.each(schemas)('%s describes every field and requires only %j', (_, schema, required) => {
    const json = z.toJSONSchema(schema, { io: 'input' }) as {
      description?: string
      required?: string[]
      properties: Record<string, { description?: string }>
    }
    expect(json.description).toBeTruthy()
    expect(json.required ?? []).toEqual(required)
    expect(Object.keys(json.properties).length).toBeGreaterThan(2)
    for (const [key, property] of Object.entries(json.properties)) {
      expect(property.description, key).toBeTruthy()
    }
  })
})
