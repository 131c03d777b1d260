/**
 * The embedded path: with no DATABASE_URL the scheduler runs on PGlite (one connection, and the
 * in-process wake-up instead of LISTEN/NOTIFY). A run-now request wakes it and the run completes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createAgentExecutor } from '#server/agent/run-executor.ts'
import { startScheduler, type RunningScheduler } from '#server/scheduler/scheduler.ts'
import { startFakeAnthropic, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

let app: TestApp
let fake: FakeAnthropic
let scheduler: RunningScheduler
beforeAll(async () => {
  fake = await startFakeAnthropic({ fallback: { text: 'Done on PGlite.' } })
  app = await startTestApp({
    pglite: true,
    env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.baseURL },
  })
  expect(app.server.db.kind).toBe('pglite')
  scheduler = await startScheduler({
    handle: app.server.db,
    executor: createAgentExecutor(),
    graceMs: 1_000,
  })
})
afterAll(async () => {
  await scheduler?.stop()
  await app?.close()
  await fake?.close()
})

it('runs a job on PGlite: run now wakes the scheduler in-process and the run succeeds', async () => {
  const client = app.client()
  await client.signUp('Pia Glite', 'pia@example.com')
  const created = await client.post('/_agent-native/jobs', {
    name: 'embedded',
    schedule: '0 7 * * *',
    instructions: 'Hello?',
  })
  expect(created.status).toBe(201)
  const queued = await client.post(`/_agent-native/jobs/${created.body.job.id}/run`)
  expect(queued.status).toBe(202)
  let body: any
  for (let i = 0; i < 200; i++) {
    body = (await client.get(`/_agent-native/runs/${queued.body.run.id}`)).body
    if (body.run.status === 'success') break
    await new Promise((r) => setTimeout(r, 25))
  }
  expect(body.run.status).toBe('success')
  expect(body.transcript.map((m: any) => m.parts.find((p: any) => p.type === 'text').text)).toEqual([
    'Hello?',
    'Done on PGlite.',
  ])
  const status = await client.get('/_agent-native/scheduler/status')
  expect(status.body.instances.map((i: any) => i.id)).toEqual([scheduler.instanceId])
})
