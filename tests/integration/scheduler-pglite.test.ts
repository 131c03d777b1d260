/**
 * The embedded path: with no DATABASE_URL the scheduler runs on PGlite (one connection, and the
 * in-process wake-up instead of LISTEN/NOTIFY). A run-now request wakes it and the run completes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningScheduler } from '#server/scheduler/scheduler.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { runNow } from '#tests/support/runs.ts'
import type { TestApp } from '#tests/support/test-app.ts'

let agent: AgentApp<false>
let app: TestApp
let scheduler: RunningScheduler
beforeAll(async () => {
  agent = await startAgentApp({
    key: 'sk-test',
    anyKey: true,
    fallback: { text: 'Done on PGlite.' },
    pglite: true,
    team: false,
    scheduler: true,
  })
  app = agent.app
  scheduler = agent.scheduler!
  expect(app.server.db.kind).toBe('pglite')
})
afterAll(() => agent?.close())

it('runs a job on PGlite: run now wakes the scheduler in-process and the run succeeds', async () => {
  const client = app.client()
  await client.signUp('Pia Glite', 'pia@example.com')
  const created = await client.post('/_agent-native/jobs', {
    name: 'embedded',
    schedule: '0 7 * * *',
    instructions: 'Hello?',
  })
  expect(created.status).toBe(201)
  const body = await runNow(client, created.body.job.id)
  expect(body.run.status).toBe('success')
  expect(body.transcript.map((m: any) => m.parts.find((p: any) => p.type === 'text').text)).toEqual([
    'Hello?',
    'Done on PGlite.',
  ])
  const status = await client.get('/_agent-native/scheduler/status')
  expect(status.body.instances.map((i: any) => i.id)).toEqual([scheduler.instanceId])
})
