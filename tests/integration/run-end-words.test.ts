/**
 * Runs ending, as a person and a developer see them (issue 26 items 13 and 14), on the real server
 * in a child process (the development entry, and the production build), over real HTTP and real
 * PostgreSQL, with the fake model:
 * - the server logs one line per run end with the job, how it ended, the duration and the cost;
 * - a failed run's reason, its alert and the run page say what happened in plain words (never
 *   "ended error", "Why: the run failed").
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { ApiClient } from '#tests/support/api-client.ts'
import { startFakeAnthropic, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { spawnServer, type ServerEntry, type SpawnedServer } from '#tests/support/spawn-server.ts'

const KEY = 'sk-ant-deployment-run-words'
const J = '/_agent-native/jobs'

describe.each<ServerEntry>(['source', 'compiled'])('the %s server', (entry) => {
  let fake: FakeAnthropic
  let server: SpawnedServer
  let ana: ApiClient

  beforeAll(async () => {
    fake = await startFakeAnthropic({ apiKey: KEY, fallback: { text: 'Done.' } })
    const postgres = { url: inject('postgresUrl'), stop: async () => {} }
    server = await spawnServer(
      { LOG_LEVEL: 'info', ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.baseURL },
      postgres,
      entry,
    )
    ana = new ApiClient(server.baseUrl)
    await ana.signUp('Ana Words', `ana-${entry}@example.com`)
  }, 180_000)

  afterAll(async () => {
    await server?.stop()
    await fake?.close()
  })

  async function runNow(name: string, extra: Record<string, unknown> = {}) {
    const created = await ana.post(J, { name, schedule: '0 7 * * *', instructions: `Do ${name}.`, ...extra })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const started = await ana.post(`${J}/${created.body.job.id}/run`)
    expect(started.status).toBe(202)
    const runId: string = started.body.run.id
    await expect
      .poll(async () => (await ana.get(`/_agent-native/runs/${runId}`)).body.run.status, { timeout: 60_000 })
      .not.toMatch(/^(queued|running)$/)
    return { job: created.body.job, run: (await ana.get(`/_agent-native/runs/${runId}`)).body.run }
  }

  it('logs one line when a run succeeds: job, status, duration and cost', async () => {
    const { run } = await runNow('morning-digest')
    expect(run.status).toBe('success')
    await expect
      .poll(() => server.output(), { timeout: 30_000 })
      .toMatch(/run ended: morning-digest succeeded in \d+ (ms|s), (\$\d+\.\d+|no cost recorded)/)
    const lines = server.output().split('\n')
    expect(lines.filter((l) => l.includes('run ended: morning-digest'))).toHaveLength(1)
    const line = lines.find((l) => l.includes('run ended: morning-digest'))!
    expect(line).toContain(run.id)
  }, 120_000)

  it('logs a failed run as a warning, and tells people what happened in plain words', async () => {
    fake.reply({ status: 400, errorType: 'invalid_request_error', message: 'prompt is too long' })
    const { job, run } = await runNow('broken-report', { alertAfterFailures: 1 })
    expect(run.status).toBe('error')
    expect(run.reason).toBe('an error stopped it')

    await expect
      .poll(() => server.output(), { timeout: 30_000 })
      .toMatch(/run ended: broken-report failed in \d+ (ms|s), /)
    const line = server
      .output()
      .split('\n')
      .find((l) => l.includes('run ended: broken-report'))!
    expect(line).toMatch(/WARN|"level":40/)

    // The alert says "failed", not "ended error".
    await expect
      .poll(async () => (await ana.get('/_agent-native/notifications')).body.notifications, {
        timeout: 30_000,
      })
      .toContainEqual(expect.objectContaining({ body: expect.stringMatching(/^The last run failed: /) }))
    const bodies = (await ana.get('/_agent-native/notifications')).body.notifications.map(
      (n: { body: string }) => n.body,
    )
    expect(bodies.join('\n')).not.toMatch(/ended (error|timed_out)/)

    // The run page labels the reason by what it explains.
    const page = await ana.request('GET', `/jobs/${job.id}/runs/${run.id}`, undefined, {
      accept: 'text/html',
    })
    expect(page.status).toBe(200)
    expect(page.body).toContain('What happened:')
    expect(page.body).toContain('an error stopped it')
    expect(page.body).not.toContain('Why: the run failed')
  }, 120_000)
})
