/**
 * Attacker's review of how the API reads its input: a query key or a JSON key given twice was
 * read silently as one of its values (the last for most routes, the first for some), so what a
 * proxy, a log or a reviewer saw was not what the server did: `{"scope":"personal","scope":"shared"}`
 * made a shared job. Each is now a 400 naming every repeated key, with nothing written.
 */
import { describe, expect, it } from 'vitest'
import type { ApiResponse } from '#tests/support/api-client.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'
import { withTeamApp } from '#tests/support/team-app.ts'

const suite = withTeamApp()
const API = '/_agent-native'
const job = '"name":"twice","schedule":"0 7 * * *","instructions":"Go."'

/** A raw JSON text, as a client may send it (JSON.stringify cannot repeat a key). */
const sendJson = (method: string, path: string, text: string, who: 'member' | 'owner' = 'member') =>
  suite.team[who].client.request(method, `${API}${path}`, text, { 'content-type': 'application/json' })

function expectRefused(res: ApiResponse, fields: string[]) {
  expect(res.status, JSON.stringify(res.body)).toBe(400)
  expect(res.body.error.code).toBe('bad_request')
  expect(res.body.error.field).toBe(fields[0])
  if (fields.length > 1) expect(res.body.error.fields.map((f: { field: string }) => f.field)).toEqual(fields)
  for (const field of fields) expect(res.body.error.message).toContain(`${field}: is given more than once`)
}

describe('a query key given twice', () => {
  it.each([
    ['/jobs?limit=1&limit=2', ['limit']],
    ['/jobs?scope=personal&scope=shared', ['scope']],
    ['/jobs?scope=personal&limit=1&scope=shared&limit=2&q=a', ['scope', 'limit']],
    ['/resources?scope=personal&scope=shared', ['scope']],
    ['/schedule/preview?schedule=0+7+*+*+*&schedule=nonsense', ['schedule']],
    ['/usage?days=1&days=1', ['days']],
  ])('GET %s is a 400 naming it', async (path, fields) => {
    expectRefused(await suite.team.owner.client.get(`${API}${path}`), fields)
  })

  it('is refused on a write too, before anything is written', async () => {
    const before = await snapshotTables()
    const res = await sendJson('POST', '/jobs?scope=a&scope=b', `{${job}}`)
    expectRefused(res, ['scope'])
    expect(await snapshotTables()).toEqual(before)
  })

  it('is still read by pages, which are not the API', async () => {
    const res = await suite.team.member.client.get('/jobs?q=a&q=b')
    expect(res.status).toBe(200)
  })
})

describe('a JSON key given twice', () => {
  it('cannot make a shared job out of a personal-looking body', async () => {
    const before = await snapshotTables()
    const res = await sendJson('POST', '/jobs', `{${job},"scope":"personal","scope":"shared"}`)
    expectRefused(res, ['scope'])
    expect(await snapshotTables()).toEqual(before)
  })

  it('is named by its path inside the body, every one at once', async () => {
    const before = await snapshotTables()
    const res = await sendJson(
      'POST',
      '/jobs',
      `{${job},"extra":{"owner":"ana","owner":"bo"},"retries":1,"retries":5}`,
    )
    expectRefused(res, ['extra.owner', 'retries'])
    expect(await snapshotTables()).toEqual(before)
  })

  it('counts a key spelled with escapes as the same key', async () => {
    const res = await sendJson('POST', '/jobs', `{${job},"scope":"personal","\\u0073cope":"shared"}`)
    expectRefused(res, ['scope'])
  })

  it('is refused by every route that reads a JSON body (org settings, access tokens)', async () => {
    const settings = await sendJson(
      'PATCH',
      '/org-settings',
      '{"monthlyBudgetUsd":5,"monthlyBudgetUsd":null}',
      'owner',
    )
    expectRefused(settings, ['monthlyBudgetUsd'])
    const token = await sendJson(
      'POST',
      '/access-tokens',
      '{"name":"a","scopes":["jobs:read"],"scopes":["jobs:write"]}',
    )
    expectRefused(token, ['scopes'])
    expect((await suite.team.member.client.get(`${API}/access-tokens`)).body.tokens).toEqual([])
  })
})
