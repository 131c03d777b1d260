/**
 * Deleting an environment whose folder is on another instance (decision 0466): two compiled
 * servers on one database, each with its own ENVIRONMENTS_DIR. A delete sent to B is forwarded to
 * A, which holds the folder: A checks the caller again, refuses while a command runs there, and
 * removes the folder and the record. When A is gone, the delete (with `leaveFolder=true`, which
 * the page's dialog sends after saying so) removes the record only; the audit rows stay. Written
 * as the attacks where access is concerned, over real HTTP and the real sandbox.
 */
import { createHmac } from 'node:crypto'
import { existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '#tests/support/api-client.ts'
import { eventually } from '#tests/support/poll.ts'
import type { SpawnedServer } from '#tests/support/spawn-server.ts'
import { startSpawnedAgentServers, type SpawnedAgentServers } from '#tests/support/spawned-agent-servers.ts'

const R = '/_agent-native/resources'
const E = '/_agent-native/environments'

let agent: SpawnedAgentServers
let a: SpawnedServer
let b: SpawnedServer
let onA: ApiClient
let onB: ApiClient
let sql: postgres.Sql

type Row = { id: string; dir: string; instance_id: string }
const rowOf = async (name: string) =>
  (await sql<Row[]>`select id, dir, instance_id from environments where name = ${name}`)[0]
const folderOnA = (row: Row) => path.join(agent.dir, 'a', row.dir)

/** Defines `name` on A and uses it there once, so its folder (with kept.txt) lives on A. */
async function madeOnA(name: string, scope: 'personal' | 'shared' = 'personal') {
  expect((await onA.put(`${R}/${scope}/environments/${name}.md`, `${name}.\n`)).status).toBe(201)
  const used = await onA.post(`${E}/${name}/commands?scope=${scope}`, { command: 'echo kept > kept.txt' })
  expect(used.status, JSON.stringify(used.body)).toBe(200)
  const row = (await rowOf(name))!
  expect(existsSync(path.join(folderOnA(row), 'kept.txt'))).toBe(true)
  return row
}

beforeAll(async () => {
  agent = await startSpawnedAgentServers({
    key: 'sk-ant-delete-instances-0466',
    dirPrefix: 'clockwork-delete-instances-',
    instances: ['a', 'b'],
    person: { name: 'Ana', email: 'ana-delete@example.com' },
  })
  ;[a, b] = agent.servers as [SpawnedServer, SpawnedServer]
  ;[onA, onB] = agent.clients as [ApiClient, ApiClient]
  sql = postgres(b.databaseUrl, { max: 1 })
}, 240_000)
afterAll(async () => {
  await sql?.end()
  await agent?.close()
})

describe('deleting an environment whose folder is on another instance', () => {
  it('is forwarded there: the folder goes from that disk and the record goes', async () => {
    const row = await madeOnA('far-away')
    expect(row.instance_id).not.toBe('')
    const res = await onB.delete(`${E}/${row.id}`)
    expect(res.status, JSON.stringify(res.body)).toBe(204)
    expect(existsSync(folderOnA(row))).toBe(false)
    expect(await rowOf('far-away')).toBeUndefined()
  })

  it('is refused with 409 busy while a command runs there, and nothing is removed', async () => {
    const row = await madeOnA('busy-box')
    const command = onA.post(`${E}/busy-box/commands?scope=personal`, {
      command: 'touch started; until [ -e .gate ]; do sleep 0.1; done; echo released',
    })
    await eventually('the command running on A', () => existsSync(path.join(folderOnA(row), 'started')))
    const refused = await onB.delete(`${E}/${row.id}`)
    expect(refused.status).toBe(409)
    expect(refused.body.error.message).toMatch(/busy-box is busy/)
    writeFileSync(path.join(folderOnA(row), '.gate'), '')
    expect((await command).body.result.stdout).toBe('released\n')
    expect(existsSync(path.join(folderOnA(row), 'kept.txt'))).toBe(true)
    expect(await rowOf('busy-box')).toMatchObject({ id: row.id })
  })

  it("refuses a member deleting another's personal environment, on B and on A's forwarded path", async () => {
    const row = await madeOnA('anas-own')
    const orgId = (await onB.get('/_agent-native/auth/get-session')).body.session.activeOrganizationId
    const mia = new ApiClient(b.baseUrl)
    const miaUser = await mia.signUp('Mia', 'mia-delete@example.com')
    const invite = await onB.post('/_agent-native/auth/organization/invite-member', {
      email: 'mia-delete@example.com',
      role: 'member',
      organizationId: orgId,
    })
    expect(invite.status).toBe(200)
    expect(
      (await mia.post('/_agent-native/auth/organization/accept-invitation', { invitationId: invite.body.id }))
        .status,
    ).toBe(200)
    await mia.post('/_agent-native/auth/organization/set-active', { organizationId: orgId })

    expect((await mia.delete(`${E}/${row.id}`)).status).toBe(404)
    // An instance (or anyone holding the instances' bearer) forwarding Mia's delete: the holder
    // checks her again from the database, whatever the sender decided.
    const bearer = createHmac('sha256', 'spawned-test-secret-spawned-test-secret')
      .update('clockwork machines forward')
      .digest('base64url')
    const forwarded = await fetch(`${a.baseUrl}${E}/internal/delete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ userId: miaUser.id, orgId, id: row.id }),
    })
    expect(forwarded.status).toBe(404)
    expect(await forwarded.json()).toMatchObject({ error: { message: 'No such environment' } })
    const guessed = await fetch(`${a.baseUrl}${E}/internal/delete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer guess' },
      body: JSON.stringify({ userId: miaUser.id, orgId, id: row.id }),
    })
    expect(guessed.status).toBe(401)
    expect(existsSync(path.join(folderOnA(row), 'kept.txt'))).toBe(true)
    expect(await rowOf('anas-own')).toMatchObject({ id: row.id })
  })

  it('when that instance is gone, removes the record only (asked explicitly), keeping the audit', async () => {
    const row = await madeOnA('left-behind')
    await a.stop()
    const asked = await onB.delete(`${E}/${row.id}`)
    expect(asked.status).toBe(503)
    expect(asked.body.error).toMatchObject({ code: 'environment_unreachable' })
    expect(asked.body.error.message).toContain(`DELETE ${E}/${row.id}?leaveFolder=true`)
    expect(await rowOf('left-behind')).toMatchObject({ id: row.id })
    expect((await onB.delete(`${E}/${row.id}?leaveFolder=maybe`)).body.error).toMatchObject({
      field: 'leaveFolder',
    })

    const res = await onB.delete(`${E}/${row.id}?leaveFolder=true`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toEqual({ deleted: row.id, folderLeftOn: row.instance_id })
    expect(await rowOf('left-behind')).toBeUndefined()
    const audit = await sql`select subject from environment_audit where environment_id = ${row.id}`
    expect(audit.map((r) => r.subject)).toContain('echo kept > kept.txt')
    expect(existsSync(path.join(folderOnA(row), 'kept.txt'))).toBe(true) // on the old host, as said
  })
})
