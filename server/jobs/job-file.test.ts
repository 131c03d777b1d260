import { describe, expect, it } from 'vitest'
import { HttpError } from '../lib/errors.ts'
import { JOB_DEFAULTS } from './fields.ts'
import {
  MAX_JOB_FILE_BYTES,
  parseJobFile,
  renderJobFile,
  type JobFileTruth,
  type JobFileView,
} from './job-file.ts'

const truth: JobFileTruth = { createdByEmail: 'Ana@Example.com', orgId: 'org_123' }
const ctx = { name: 'daily-signups', truth }

/** A job file with the given frontmatter lines and body. */
const file = (front: string, body = 'Summarise yesterday’s sign-ups.') => `---\n${front}\n---\n${body}\n`
const ok = 'schedule: "0 7 * * 1-5"'

function httpError(fn: () => unknown): HttpError {
  try {
    fn()
  } catch (err) {
    if (err instanceof HttpError) return err
    throw err
  }
  throw new Error('expected an HttpError, got success')
}

describe('parseJobFile', () => {
  it('reads the definition, body and unknown keys', () => {
    const text = file(
      [
        ok,
        'timezone: Europe/Berlin',
        'enabled: false',
        'runAs: shared',
        'catchUp: skip',
        'overlap: queue',
        'retries: 2',
        'timeoutMinutes: 15',
        'owner: growth',
        'tags: [metrics, daily]',
        'reviewed: 2024-01-02',
      ].join('\n'),
      '\n  Summarise.\n\nThen post.  \n\n',
    )
    expect(parseJobFile(text, ctx)).toEqual({
      schedule: '0 7 * * 1-5',
      timezone: 'Europe/Berlin',
      enabled: false,
      runAs: 'shared',
      catchUp: 'skip',
      overlap: 'queue',
      retries: 2,
      timeoutMinutes: 15,
      maxCostUsd: null,
      environment: null,
      notify: null,
      expectSuccessWithin: null,
      mcp: null,
      skills: null,
      instructions: 'Summarise.\n\nThen post.',
      // An unquoted YAML date becomes a Date; it is kept as an ISO string so it fits JSON.
      extra: { owner: 'growth', tags: ['metrics', 'daily'], reviewed: '2024-01-02T00:00:00.000Z' },
    })
  })

  it('leaves absent and empty keys out, for the service to default', () => {
    const parsed = parseJobFile(file(`${ok}\ntimezone:\nenabled: ~`), ctx)
    expect(Object.keys(parsed).sort()).toEqual([
      'environment',
      'expectSuccessWithin',
      'extra',
      'instructions',
      'maxCostUsd',
      'mcp',
      'notify',
      'schedule',
      'skills',
    ])
  })

  it('ignores managed keys, whatever they hold', () => {
    const text = file(
      `${ok}\nlastRun: yesterday\nlastStatus: [1, 2]\nlastError: {a: 1}\nnextRun: 2030-01-01T00:00:00Z`,
    )
    expect(parseJobFile(text, ctx).extra).toEqual({})
  })

  it('accepts createdBy and orgId that match the truth, createdBy in any case', () => {
    const text = file(`${ok}\ncreatedBy: ana@EXAMPLE.com\norgId: org_123`)
    expect(parseJobFile(text, ctx).extra).toEqual({})
    expect(parseJobFile(file(`${ok}\ncreatedBy: ~`), { ...ctx, truth: null }).extra).toEqual({})
  })

  it('reads CRLF line endings and a byte-order mark', () => {
    const text = `\uFEFF---\r\n${ok}\r\nowner: growth\r\n---\r\nLine one.\r\nLine two.\r\n`
    expect(parseJobFile(text, ctx)).toEqual({
      schedule: '0 7 * * 1-5',
      maxCostUsd: null,
      environment: null,
      notify: null,
      expectSuccessWithin: null,
      mcp: null,
      skills: null,
      instructions: 'Line one.\r\nLine two.',
      extra: { owner: 'growth' },
    })
  })

  it('accepts exactly the limit (256 KiB), counted in UTF-8 bytes', () => {
    // Three-byte characters keep the body under the instructions' character limit; a padding key
    // in the frontmatter fills the rest.
    const body = '漢'.repeat(50_000)
    const empty = file(`${ok}\npad: ""`, body)
    const pad = 'x'.repeat(MAX_JOB_FILE_BYTES - Buffer.byteLength(empty))
    const exact = file(`${ok}\npad: "${pad}"`, body)
    expect(Buffer.byteLength(exact)).toBe(MAX_JOB_FILE_BYTES)
    expect(parseJobFile(exact, ctx).instructions).toBe(body)
    expect(httpError(() => parseJobFile(file(`${ok}\npad: "${pad}x"`, body), ctx)).status).toBe(413)
  })

  it('keeps a "__proto__" key as data without touching prototypes', () => {
    const parsed = parseJobFile(file(`${ok}\n"__proto__": {polluted: true}`), ctx)
    expect(Object.keys(parsed.extra)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('never evaluates JavaScript frontmatter', () => {
    const g = globalThis as { pwned?: boolean }
    const err = httpError(() =>
      parseJobFile(`---js\n(globalThis.pwned = true, {schedule: '@daily'})\n---\nHi\n`, ctx),
    )
    expect(err).toMatchObject({ status: 400, field: 'frontmatter' })
    expect(g.pwned).toBeUndefined()
  })

  const aliasBomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]']
  for (const k of 'bcdefg')
    aliasBomb.push(`${k}: &${k} [${Array(10).fill(`*${String.fromCharCode(k.charCodeAt(0) - 1)}`)}]`)

  const bad: [
    string,
    string,
    { name?: string; truth?: JobFileTruth | null },
    number,
    string | undefined,
    RegExp,
  ][] = [
    ['an oversize file', file(ok, 'x'.repeat(MAX_JOB_FILE_BYTES)), {}, 413, undefined, /262144/],
    [
      'a file over 256 KiB in bytes, not characters',
      file(`${ok}\npad: "${'é'.repeat(45_000)}"`, '漢'.repeat(60_000)),
      {},
      413,
      undefined,
      /256 KiB/,
    ],
    ['an upper-case name', file(ok), { name: 'Daily' }, 400, 'name', /^name: must be a slug/],
    ['an empty name', file(ok), { name: '' }, 400, 'name', /^name: /],
    ['a name with a slash', file(ok), { name: 'a/b' }, 400, 'name', /^name: /],
    [
      'bad indentation',
      file(`${ok}\ntimezone: UTC\n  bad: indent`),
      {},
      400,
      'frontmatter',
      /^Line 4: invalid YAML: bad indentation/,
    ],
    [
      'a duplicated key',
      file(`${ok}\nenabled: true\nenabled: false`),
      {},
      400,
      'frontmatter',
      /^Line 4: .*duplicated/,
    ],
    [
      'CRLF broken YAML',
      `---\r\n${ok}\r\nfoo: [1,\r\n  bar: }\r\n---\r\nHi\r\n`,
      {},
      400,
      'frontmatter',
      /^Line \d: invalid YAML/,
    ],
    [
      'an unquoted */5 schedule',
      file('schedule: */5 * * * *'),
      {},
      400,
      'frontmatter',
      /^Line 2: .*put the cron expression in quotes/,
    ],
    [
      'an unquoted @daily schedule',
      file('owner: x\nschedule: @daily'),
      {},
      400,
      'frontmatter',
      /^Line 3: .*in quotes/,
    ],
    ['a list as frontmatter', file('- a\n- b'), {}, 400, 'frontmatter', /mapping/],
    ['a scalar as frontmatter', file('just words'), {}, 400, 'frontmatter', /mapping/],
    ['a null frontmatter', file('~'), {}, 400, 'schedule', /^schedule: is required/],
    ['an unclosed frontmatter', `---\n${ok}\nHello\n`, {}, 400, 'frontmatter', /not closed/],
    [
      'a non-YAML opener',
      `---json\n{"schedule": "@daily"}\n---\nHi\n`,
      {},
      400,
      'frontmatter',
      /^Line 1: .*YAML/,
    ],
    ['no frontmatter', 'Just do it.\n', {}, 400, 'schedule', /^schedule: is required/],
    ['an empty file', '', {}, 400, 'schedule', /^schedule: is required/],
    ['an empty frontmatter', file(''), {}, 400, 'schedule', /^schedule: is required/],
    ['a missing schedule', file('timezone: UTC'), {}, 400, 'schedule', /^schedule: is required/],
    ['an empty schedule', file('schedule: ""'), {}, 400, 'schedule', /^schedule: /],
    [
      'a numeric schedule',
      file('schedule: 5'),
      {},
      400,
      'schedule',
      /^schedule: must be a cron expression string/,
    ],
    ['an out-of-range hour', file('schedule: "0 25 * * *"'), {}, 400, 'schedule', /^schedule: hour: 25/],
    ['a 6-field cron', file('schedule: "0 0 7 * * *"'), {}, 400, 'schedule', /^schedule: .*5 fields/],
    [
      'an unknown zone',
      file(`${ok}\ntimezone: Mars/Olympus`),
      {},
      400,
      'timezone',
      /^timezone: unknown time zone/,
    ],
    ['a numeric zone', file(`${ok}\ntimezone: 5`), {}, 400, 'timezone', /^timezone: /],
    ['an empty body', file(ok, ''), {}, 400, 'instructions', /^instructions: must not be empty/],
    ['a blank body', file(ok, '  \n\n\t'), {}, 400, 'instructions', /^instructions: must not be empty/],
    [
      'instructions as a key',
      file(`${ok}\ninstructions: do it`),
      {},
      400,
      'instructions',
      /below the frontmatter/,
    ],
    ['enabled: "yes"', file(`${ok}\nenabled: "yes"`), {}, 400, 'enabled', /^enabled: must be true or false/],
    ['enabled: yes', file(`${ok}\nenabled: yes`), {}, 400, 'enabled', /true or false/],
    ['retries: 9', file(`${ok}\nretries: 9`), {}, 400, 'retries', /^retries: must be at most 5/],
    ['retries: 1.5', file(`${ok}\nretries: 1.5`), {}, 400, 'retries', /whole number/],
    ['timeoutMinutes: 0', file(`${ok}\ntimeoutMinutes: 0`), {}, 400, 'timeoutMinutes', /at least 1/],
    ['runAs: root', file(`${ok}\nrunAs: root`), {}, 400, 'runAs', /"creator" or "shared"/],
    ['catchUp: all', file(`${ok}\ncatchUp: all`), {}, 400, 'catchUp', /"latest" or "skip"/],
    ['overlap: parallel', file(`${ok}\noverlap: parallel`), {}, 400, 'overlap', /"skip" or "queue"/],
    [
      'someone else as createdBy',
      file(`${ok}\ncreatedBy: eve@example.com`),
      {},
      400,
      'createdBy',
      /set by the server/,
    ],
    [
      'a list as createdBy',
      file(`${ok}\ncreatedBy: [ana@example.com]`),
      {},
      400,
      'createdBy',
      /^createdBy: /,
    ],
    ['another org', file(`${ok}\norgId: org_999`), {}, 400, 'orgId', /^orgId: is set by the server/],
    ['orgId in another case', file(`${ok}\norgId: ORG_123`), {}, 400, 'orgId', /^orgId: /],
    [
      'createdBy with no truth',
      file(`${ok}\ncreatedBy: ana@example.com`),
      { truth: null },
      400,
      'createdBy',
      /remove it/,
    ],
    ['orgId with no truth', file(`${ok}\norgId: org_123`), { truth: null }, 400, 'orgId', /remove it/],
    ['a NaN extra value', file(`${ok}\nweight: .nan`), {}, 400, 'weight', /^weight: must be a finite number/],
    ['a nested infinite value', file(`${ok}\na:\n  b: [1, .inf]`), {}, 400, 'a.b.1', /^a\.b\.1: /],
    ['a binary extra value', file(`${ok}\nblob: !!binary aGVsbG8=`), {}, 400, 'blob', /^blob: /],
    ['an alias bomb', file(`${ok}\n${aliasBomb.join('\n')}`), {}, 400, 'frontmatter', /^Line 3: .*\(&a\)/],
    [
      'an alias bomb in notify',
      file(`${ok}\nnotify:\n  - ${aliasBomb.join('\n  - ')}`),
      {},
      400,
      'frontmatter',
      /anchors/,
    ],
    ['a self-referencing alias', file(`${ok}\nloop: &l [*l]`), {}, 400, 'frontmatter', /^Line 3: .*\(&l\)/],
    ['an anchored string', file(`${ok}\nowner: &o ana\nbackup: *o`), {}, 400, 'frontmatter', /not allowed/],
  ]
  it.each(bad)('rejects %s', (_, text, override, status, field, message) => {
    const err = httpError(() => parseJobFile(text, { ...ctx, ...override }))
    const code = status === 413 ? 'payload_too_large' : 'bad_request'
    expect({ status: err.status, code: err.code, field: err.field }).toEqual({ status, code, field })
    expect(err.message).toMatch(message)
  })
})

describe('renderJobFile', () => {
  const base: JobFileView = {
    ...JOB_DEFAULTS,
    schedule: '0 7 * * 1-5',
    timezone: 'Europe/Berlin',
    instructions: 'Summarise yesterday’s sign-ups and post the numbers.',
    extra: {},
    createdByEmail: 'ana@example.com',
  }

  it('writes keys in a stable order, quotes the schedule and ends with the creator', () => {
    const text = renderJobFile({ ...base, extra: { owner: 'growth', tags: ['a', 'b'] } })
    expect(text).toBe(
      [
        '---',
        'schedule: "0 7 * * 1-5"',
        'timezone: Europe/Berlin',
        'enabled: true',
        'runAs: creator',
        'catchUp: latest',
        'overlap: skip',
        'retries: 0',
        'timeoutMinutes: 10',
        'harness: builtin',
        'agentMayEditJobs: false',
        'alertAfterFailures: 2',
        'owner: growth',
        'tags:',
        '  - a',
        '  - b',
        'createdBy: ana@example.com',
        '---',
        '',
        'Summarise yesterday’s sign-ups and post the numbers.',
        '',
      ].join('\n'),
    )
  })

  it('drops extra keys that would collide with real ones', () => {
    const text = renderJobFile({ ...base, extra: { schedule: '* * * * *', lastRun: 'x', keep: 1 } })
    expect(text.match(/^schedule:/gm)).toHaveLength(1)
    expect(text).not.toMatch(/^lastRun:/m)
    expect(text).toMatch(/^keep: 1$/m)
  })

  const definition = (view: JobFileView) => {
    const { createdByEmail, ...rest } = view
    void createdByEmail
    return rest
  }

  const examples: [string, JobFileView][] = [
    ['the plain job', base],
    [
      'every field changed',
      {
        ...base,
        schedule: '*/5 * * * *',
        timezone: 'UTC',
        enabled: false,
        runAs: 'shared',
        catchUp: 'skip',
        overlap: 'queue',
        retries: 5,
        timeoutMinutes: 60,
      },
    ],
    ['a macro schedule', { ...base, schedule: '@daily' }],
    [
      'unknown nested keys',
      {
        ...base,
        extra: {
          owner: { team: 'growth', people: ['ana', 'bo'] },
          matrix: [[1, 2], [], {}],
          flags: { on: true, off: false, none: null },
          numbers: [0, -1, 1.5, 1e21],
          '---x': 'a key that looks like a delimiter',
          'key with: colon': '# not a comment',
        },
      },
    ],
    [
      'strings YAML would read as something else',
      {
        ...base,
        extra: {
          a: '007',
          b: 'yes',
          c: 'true',
          d: '2024-01-01',
          e: 'null',
          f: '~',
          g: '',
          h: '1e3',
          i: '*alias',
          j: '@at',
          k: '- dash',
          l: '0x1F',
        },
      },
    ],
    [
      'unicode',
      {
        ...base,
        instructions: 'Résumé 📈 日本語 — “quotes”',
        extra: { größe: 'ß', emoji: '🕖', rtl: 'שלום' },
      },
    ],
    [
      'multi-line instructions with delimiters and Markdown',
      {
        ...base,
        instructions:
          '---\nStart with a rule.\n\n## Steps\n1. Query\n---\n2. Post\n\n```yaml\nschedule: nope\n---\n```\nEnd ---',
      },
    ],
    [
      'multi-line extra strings',
      { ...base, extra: { note: 'line one\nline two\n', indented: '  leading\n\ttab', cr: 'a\r\nb' } },
    ],
    ['an unusual creator address', { ...base, createdByEmail: 'ana+jobs"x@example.com' }],
  ]

  it.each(examples)('round-trips %s', (_, view) => {
    const text = renderJobFile(view)
    const parsed = parseJobFile(text, {
      name: 'job',
      truth: { createdByEmail: view.createdByEmail, orgId: 'org_123' },
    })
    expect(parsed).toEqual(definition(view))
    // Rendering what was parsed gives the same file: the format is a fixed point.
    expect(renderJobFile({ ...view, ...parsed })).toBe(text)
  })
})
