/**
 * "Rebuild here" on the environment page (issue 12 item 10): the page's loader says whether the
 * instance holding the folder answers and whether the caller may rebuild; its action (intent
 * `rebuild`) moves the environment here, refused while the holder answers or to anyone else.
 * Real server in this process, real PostgreSQL; the "other instance" is a record naming a
 * foreign instance whose URL either answers (this server) or refuses connections (a closed port).
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Caller } from '#server/access/caller.ts'
import { getDb } from '#server/db/client.ts'
import { environments } from '#server/db/schema/environments.ts'
import { here } from '#server/environments/instance.ts'
import { insertEnvironment } from '#server/environments/store.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleEnvironmentAction, loadEnvironmentPage } from '#server/pages/environments-page.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { freePort } from '#tests/support/postgres-server.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

let app: TestApp
let ana: Caller
let otto: Caller
let envId: string
let closedUrl: string

const pageUrl = () => new URL(`${app.baseUrl}/environments/work`)

async function callerOf(client: ApiClient) {
  return requirePageCaller(new Request(pageUrl(), { headers: { cookie: client.cookieHeader } }))
}

function rebuildForm() {
  return new Request(pageUrl(), {
    method: 'POST',
    body: new URLSearchParams({ intent: 'rebuild', scope: 'personal' }),
  })
}

const placeHolder = (instanceUrl: string) =>
  getDb()
    .update(environments)
    .set({ instanceId: 'gone-host:0badf00d', instanceUrl })
    .where(eq(environments.id, envId))

beforeAll(async () => {
  app = await startTestApp()
  const anaClient = app.client()
  await anaClient.signUp('Ana', 'ana@example.com')
  expect(
    (await anaClient.put('/_agent-native/resources/personal/environments/work.md', 'Work.\n')).status,
  ).toBe(201)
  const ottoClient = app.client()
  await ottoClient.signUp('Otto', 'otto@example.com')
  ana = await callerOf(anaClient)
  otto = await callerOf(ottoClient)
  const row = await insertEnvironment({
    id: 'env_rebuildpage0001',
    orgId: ana.orgId,
    scope: 'personal',
    createdBy: ana.userId,
    name: 'work',
    instanceId: 'gone-host:0badf00d',
    instanceUrl: null,
    dir: '/elsewhere/work',
  })
  envId = row!.id
  closedUrl = `http://127.0.0.1:${await freePort()}` // nothing listens there
}, 120_000)

afterAll(async () => {
  await app?.close()
})

describe('the environment page when its folder is on another instance', () => {
  it('says the holder answers, and refuses to rebuild while it does', async () => {
    await placeHolder(app.baseUrl) // answers /health: this very server
    const page = await loadEnvironmentPage(ana, 'work', pageUrl())
    expect(page.environment.status).toBe('elsewhere')
    expect(page.holder).toMatchObject({ instanceId: 'gone-host:0badf00d', reachable: true, mayRebuild: true })
    const refused = await handleEnvironmentAction(ana, 'work', rebuildForm())
    expect(refused).toMatchObject({ ok: false, intent: 'rebuild', error: { status: 409 } })
    expect(!refused.ok && refused.error.message).toContain('still answers')
    const [row] = await getDb().select().from(environments).where(eq(environments.id, envId))
    expect(row!.instanceId).toBe('gone-host:0badf00d')
  })

  it('offers "Rebuild here" when the holder does not answer, and rebuilds it here for its owner', async () => {
    await placeHolder(closedUrl)
    const page = await loadEnvironmentPage(ana, 'work', pageUrl())
    expect(page.holder).toMatchObject({ reachable: false, mayRebuild: true, instanceUrl: closedUrl })

    // Someone else cannot even see it (another organisation): 404 as data, nothing moves.
    const outsider = await handleEnvironmentAction(otto, 'work', rebuildForm())
    expect(outsider).toMatchObject({ ok: false, error: { status: 404 } })

    const rebuilt = await handleEnvironmentAction(ana, 'work', rebuildForm())
    expect(rebuilt).toMatchObject({
      ok: true,
      intent: 'rebuild',
      data: { id: envId, name: 'work', instanceId: here().instanceId },
    })
    const after = await loadEnvironmentPage(ana, 'work', pageUrl())
    expect(after.environment.status).not.toBe('elsewhere')
    expect(after.holder).toBeNull()

    const again = await handleEnvironmentAction(ana, 'work', rebuildForm())
    expect(again).toMatchObject({ ok: false, error: { status: 409 } })
    expect(!again.ok && again.error.message).toContain('already lives on this instance')
  })

  it('refuses an unknown intent with a 400 naming the field', async () => {
    const form = new Request(pageUrl(), { method: 'POST', body: new URLSearchParams({ intent: 'explode' }) })
    expect(await handleEnvironmentAction(ana, 'work', form)).toMatchObject({
      ok: false,
      error: { status: 400, field: 'intent' },
    })
  })
})
