import { spawn } from 'node:child_process'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { inject } from 'vitest'
import { createEmptyDatabase, freePort } from '#tests/support/postgres-server.ts'

// The real entry point in a child process: start, serve, then SIGTERM.
let database: Awaited<ReturnType<typeof createEmptyDatabase>>

beforeAll(async () => {
  database = await createEmptyDatabase(inject('postgresUrl'))
})
afterAll(() => database?.drop())

it('exits cleanly within the shutdown window on SIGTERM, with no error output', async () => {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/dev.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      BETTER_AUTH_SECRET: 'shutdown-test-secret-shutdown-test-secret',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderrAfterStart = ''
  let started = false
  child.stderr.on('data', (chunk) => {
    if (started) stderrAfterStart += String(chunk)
  })

  const deadline = Date.now() + 60_000
  while (!started && Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${port}/_agent-native/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) started = true
    else await new Promise((r) => setTimeout(r, 200))
  }
  expect(started).toBe(true)

  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  child.kill('SIGTERM')
  // The design promises an exit within 5 s; a hang past that is a failure, not a slow pass.
  const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 5_000))])
  if (code === 'hung') child.kill('SIGKILL')
  expect(code).toBe(0)
  expect(stderrAfterStart).toBe('')
}, 90_000)
