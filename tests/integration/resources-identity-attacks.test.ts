/**
 * A member against the workspace API: reaching another member's personal file by the path, and a
 * job file whose front matter claims someone else (creator, the organisation's key, another
 * member's shared job). Each request is one an attacker can make; each must leave nothing of
 * theirs behind.
 */
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import type { ApiClient } from '#tests/support/api-client.ts'
import { withTeamApp } from '#tests/support/team-app.ts'

const R = '/_agent-native/resources'
const J = '/_agent-native/jobs'

const suite = withTeamApp()
/**
 * One request with its path sent as written: fetch (the test client) resolves `..` and `%2e%2e`
 * before sending, and an attacker's client need not.
 */
function raw(client: ApiClient, method: string, path: string, body?: string) {
  const url = new URL(client.baseUrl)
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { cookie: client.cookieHeader, origin: client.baseUrl, 'content-type': 'text/markdown' },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const job = (front: string) => `---\nschedule: "0 7 * * *"\n${front}---\nGo.\n`

describe("another member's personal file", () => {
  it('is not reached by any spelling of its path: read, written or deleted', async () => {
    const { creator, member } = suite.team
    expect((await creator.client.put(`${R}/personal/notes/diary.md`, 'secret')).status).toBe(201)
    const spellings = [
      'personal/../personal/notes/diary.md',
      'personal/%2e%2e/personal/notes/diary.md',
      'personal/notes/%2e/diary.md',
      `personal/${creator.id}/notes/diary.md`,
      `personal/..%2f${creator.id}/notes/diary.md`,
      'shared/../personal/notes/diary.md',
      `shared/%2e%2e/personal/notes/diary.md`,
    ]
    // The raw request is the member's: their own file answers through it.
    expect((await member.client.put(`${R}/personal/mine.md`, 'theirs')).status).toBe(201)
    const own = await raw(member.client, 'GET', `${R}/personal/notes/../mine.md`)
    expect(own.status).toBe(200)
    expect(own.text).toContain('theirs')
    for (const spelling of spellings) {
      const read = await raw(member.client, 'GET', `${R}/${spelling}`)
      expect(read.status, spelling).toBeGreaterThanOrEqual(400)
      expect(read.status, spelling).toBeLessThan(500)
      expect(read.text).not.toContain('secret')
      expect((await raw(member.client, 'PUT', `${R}/${spelling}`, 'overwritten')).status).toBeLessThan(500)
      expect((await raw(member.client, 'DELETE', `${R}/${spelling}`)).status).toBeLessThan(500)
    }
    const still = await creator.client.get(`${R}/personal/notes/diary.md`)
    expect(still.body.resource).toMatchObject({ content: 'secret', version: 1 })
    const tree = await member.client.get(`${R}?prefix=notes/`)
    expect(JSON.stringify(tree.body)).not.toContain('diary')
  })
})

describe('a job file claiming someone else', () => {
  const names = async (who: 'member' | 'creator') =>
    ((await suite.team[who].client.get(J)).body.jobs as { name: string }[]).map((j) => j.name)

  it('as creator: refused naming createdBy, and no job is made', async () => {
    const res = await suite.team.member.client.put(
      `${R}/personal/jobs/claims-creator.md`,
      job(`createdBy: ${suite.team.creator.email}\n`),
    )
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('createdBy')
    expect(await names('member')).not.toContain('claims-creator')
  })

  it("with the organisation's key (runAs: shared), by a member: refused, no job made", async () => {
    for (const scope of ['shared', 'personal']) {
      const res = await suite.team.member.client.put(
        `${R}/${scope}/jobs/claims-key.md`,
        job('runAs: shared\n'),
      )
      expect(res.status, scope).toBeGreaterThanOrEqual(400)
      expect(res.status, scope).toBeLessThan(500)
    }
    expect(await names('member')).not.toContain('claims-key')
  })

  it("over another member's shared job: refused, the job unchanged", async () => {
    const made = await suite.team.creator.client.put(`${R}/shared/jobs/theirs.md`, job(''))
    expect(made.status).toBe(201)
    const res = await suite.team.member.client.put(
      `${R}/shared/jobs/theirs.md`,
      job(`createdBy: ${suite.team.member.email}\n`).replace('Go.', 'Mine now.'),
    )
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    const file = await suite.team.creator.client.get(`${R}/shared/jobs/theirs.md`)
    expect(file.body.resource.content).toContain('Go.')
    expect(file.body.resource.content).toContain(`createdBy: ${suite.team.creator.email}`)
  })
})
