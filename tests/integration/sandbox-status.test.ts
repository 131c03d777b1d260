/** The sandbox status endpoint over real HTTP: signed-in callers see what agent code is isolated by. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { usableBwrap } from '#server/sandbox/host-tools.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(async () => app?.close())

describe('GET /_agent-native/sandbox/status', () => {
  it('needs a session', async () => {
    expect((await app.client().get('/_agent-native/sandbox/status')).status).toBe(401)
  })

  it('names the adapter and its isolation level', async () => {
    const client = app.client()
    await client.signUp('Sam Status', `sam-${Date.now()}@example.com`)
    const res = await client.get('/_agent-native/sandbox/status')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      adapter: 'local-child-process',
      level: (await usableBwrap()) ? 'strong' : 'reduced',
    })
    expect(res.body.summary).toEqual(expect.any(String))
  })
})
