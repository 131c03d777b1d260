/**
 * Attack: a YAML alias bomb in a tenant's frontmatter, from an outside review. js-yaml hands every
 * alias the anchored node itself, so the parsed value stays small in memory; but the input check
 * (checkInput's findUnstorableText) then walked it as a tree, with no budget, before the schema:
 * seven nested anchors of ten aliases each are 10^7 strings from a 400-byte file, about ten seconds
 * of the server's one event loop, each further level ten times more. Every door that reads a job file
 * or an environment definition took it: the resources API, the workspace editor's check as you type,
 * the MCP server's job file tool. Safe outcome: the first anchor is a 400 naming `frontmatter` and
 * its line (decision 0524), nothing is stored, and the server (in its own process) answers health
 * throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '#tests/support/api-client.ts'
import { HANG_GUARD_MS, healthWhile, spawnTarget, stopTarget } from '#tests/support/health-probe.ts'
import { connectMcp } from '#tests/support/mcp-client.ts'
import type { SpawnedServer } from '#tests/support/spawn-server.ts'

const R = '/_agent-native/resources/personal'
let server: SpawnedServer
let mallory: ApiClient

beforeAll(async () => {
  ;({ server, attacker: mallory } = await spawnTarget({
    name: 'Mallory Alias',
    email: 'mallory-alias@example.com',
  }))
}, 90_000)
afterAll(() => stopTarget(server))

/** `- &l0 [...]` to `- &l6 [...]`, each level ten aliases of the one above it: 10^7 strings. */
function aliasBomb(indent: string): string {
  const lines = [`${indent}- &l0 [${Array(10).fill('"x"').join(',')}]`]
  for (let i = 1; i <= 6; i++)
    lines.push(
      `${indent}- &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(',')}]`,
    )
  return lines.join('\n')
}

const JOB_FILE = `---\nschedule: "0 7 * * *"\nnotify:\n${aliasBomb('  ')}\n---\nGo.\n`
// The anchor's line: the opener, schedule and notify come first.
const REFUSAL = /^Line 4: YAML anchors and aliases \(&l0\) are not allowed in frontmatter/

describe('a YAML alias bomb in frontmatter', () => {
  it('in a job file’s notify is refused by the resources API, naming frontmatter, while health answers', async () => {
    expect(JOB_FILE.length).toBeLessThan(400)
    const attempt = mallory.put(`${R}/jobs/aliases.md`, JOB_FILE)
    expect(await healthWhile(server.baseUrl, attempt, HANG_GUARD_MS)).toBeGreaterThan(0)
    const res = await attempt
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ field: 'frontmatter', message: expect.stringMatching(REFUSAL) })
    expect((await mallory.get(`${R}/jobs/aliases.md`)).status).toBe(404)
  }, 120_000)

  it('under an environment definition’s unknown key is refused, naming frontmatter, while health answers', async () => {
    const text = `---\nsomething:\n${aliasBomb('  ')}\n---\nWork.\n`
    const attempt = mallory.put(`${R}/environments/aliases.md`, text)
    expect(await healthWhile(server.baseUrl, attempt, HANG_GUARD_MS)).toBeGreaterThan(0)
    const res = await attempt
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({
      field: 'frontmatter',
      message: expect.stringMatching(/^Line 3: YAML anchors and aliases \(&l0\)/),
    })
    expect((await mallory.get(`${R}/environments/aliases.md`)).status).toBe(404)
  }, 120_000)

  it('through the workspace editor’s check as you type is a verdict naming frontmatter, while health answers', async () => {
    const form = new URLSearchParams({
      intent: 'validate',
      scope: 'personal',
      path: 'jobs/aliases.md',
      content: JOB_FILE,
      token: 't1',
    })
    const attempt = mallory.request('POST', '/workspace.data', form.toString(), {
      'content-type': 'application/x-www-form-urlencoded',
    })
    expect(await healthWhile(server.baseUrl, attempt, HANG_GUARD_MS)).toBeGreaterThan(0)
    const res = await attempt
    expect(res.status).toBe(200)
    const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body)
    expect(text).toContain('frontmatter')
    expect(text).toContain('Line 4: YAML anchors and aliases (&l0) are not allowed in frontmatter')
  }, 120_000)

  it('through the MCP server’s edit_job_file is refused, naming frontmatter, while health answers', async () => {
    const made = await mallory.post('/_agent-native/access-tokens', { name: 'agent', scopes: ['jobs:write'] })
    expect(made.status).toBe(201)
    const client = await connectMcp(server.baseUrl, made.body.token)
    const attempt = client.callTool({
      name: 'edit_job_file',
      arguments: { name: 'via-mcp', content: JOB_FILE },
    })
    expect(await healthWhile(server.baseUrl, attempt, HANG_GUARD_MS)).toBeGreaterThan(0)
    const result = await attempt
    expect(result.isError).toBe(true)
    expect(JSON.stringify(result.content)).toMatch(/Line 4: YAML anchors and aliases \(&l0\)/)
    await client.close()
    expect((await mallory.get(`${R}/jobs/via-mcp.md`)).status).toBe(404)
  }, 120_000)
})
