/**
 * The Environments HTTP API people's pages use, over real HTTP and Postgres with the real sandbox:
 * the list, one environment, its files (read-only), the command box (same policy as the agent,
 * audited as the person) and a paged audit trail, under the jobs' truth table; and an invalid
 * `environments/<name>.md` refused on write with a 400 naming the field and its line.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { environmentTemplate } from '#server/environments/definition/definition.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const R = '/_agent-native/resources'
const E = '/_agent-native/environments'

let app: TestApp
let team: Team
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-envs-api-'))
  chmodSync(dir, 0o711) // the sandbox uid must be able to enter it
  app = await startTestApp({ env: { ENVIRONMENTS_DIR: path.join(dir, 'environments') } })
  team = await createTeam(app)
})
afterAll(async () => {
  await app?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('environment definitions are validated on write', () => {
  it('refuses an invalid definition with a 400 naming the field and its line, and stores nothing', async () => {
    const c = team.member.client
    const bad = await c.put(
      `${R}/personal/environments/bad.md`,
      '---\nprovider: local\nlimits:\n  diskMb: -5\n---\nHi\n',
    )
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatchObject({ field: 'limits.diskMb' })
    expect(bad.body.error.message).toMatch(/^Line 4: /)
    const yaml = await c.put(`${R}/personal/environments/bad.md`, '---\npolicy: [unclosed\n---\n')
    expect(yaml.status).toBe(400)
    expect(yaml.body.error.field).toBe('frontmatter')
    const name = await c.put(`${R}/personal/environments/Bad_Name.md`, environmentTemplate('x'))
    expect(name.status).toBe(400)
    expect(name.body.error.field).toBe('path')
    expect((await c.get(`${R}/personal/environments/bad.md`)).status).toBe(404)
    // Other files under environments/ are plain files.
    expect((await c.put(`${R}/personal/environments/notes/readme.txt`, 'anything')).status).toBe(201)
  })

  it('refuses network hosts that lead inside, in any spelling, naming the field', async () => {
    const own = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && i.family === 'IPv4')?.address
    const inside = [
      '10.0.0.5',
      '172.16.3.4',
      '192.168.1.1:8080',
      '169.254.169.254',
      '100.100.100.200',
      '127.1',
      '2130706433',
      '0x7f000001',
      'localhost:5432',
      '[::1]',
      '[fd00::1]',
      ...(own ? [own] : []),
    ]
    for (const host of inside) {
      const put = await team.member.client.put(
        `${R}/personal/environments/intranet.md`,
        `---\npolicy:\n  network:\n    allow: ["api.github.com", "${host}"]\n---\nx\n`,
      )
      expect([host, put.status, put.body.error?.field]).toEqual([host, 400, 'policy.network.allow.1'])
    }
    expect((await team.member.client.get(`${R}/personal/environments/intranet.md`)).status).toBe(404)
    const pub = await team.member.client.put(
      `${R}/personal/environments/intranet.md`,
      '---\npolicy:\n  network:\n    allow: ["api.github.com", "1.1.1.1:443", "*.npmjs.org"]\n---\nx\n',
    )
    expect(pub.status).toBe(201)
  })

  it('accepts the "+ Environment" template', async () => {
    const put = await team.member.client.put(
      `${R}/personal/environments/tools.md`,
      environmentTemplate('tools'),
    )
    expect(put.status).toBe(201)
  })
})

describe('the list and one environment', () => {
  it("lists the caller's personal, defined and shared environments, never another person's", async () => {
    expect(
      (await team.creator.client.put(`${R}/shared/environments/team-box.md`, environmentTemplate('team-box')))
        .status,
    ).toBe(201)
    const mine = await team.member.client.get(E)
    expect(mine.status).toBe(200)
    const keys = mine.body.environments.map((e: any) => `${e.scope}/${e.name}:${e.status}`)
    expect(keys).toEqual(
      expect.arrayContaining([
        'personal/scratch:not_started',
        'personal/tools:not_started',
        'shared/team-box:not_started',
      ]),
    )
    const tools = mine.body.environments.find((e: any) => e.name === 'tools')
    expect(tools).toMatchObject({
      id: null,
      definitionPath: 'environments/tools.md',
      sizeBytes: 0,
      canUse: true,
    })
    const theirs = await team.admin.client.get(E)
    expect(theirs.body.environments.map((e: any) => e.name)).not.toContain('tools')
    expect(theirs.body.environments.map((e: any) => e.name)).toContain('team-box')

    const one = await team.member.client.get(`${E}/tools`)
    expect(one.body.environment).toMatchObject({
      name: 'tools',
      scope: 'personal',
      definition: { ok: true, provider: 'local', secrets: [] },
    })
    expect((await team.admin.client.get(`${E}/tools`)).status).toBe(404)
    expect((await team.outsider.client.get(`${E}/team-box`)).status).toBe(404)
  })

  it('answers bad references and queries with a 400 naming the field', async () => {
    const c = team.member.client
    expect((await c.get(`${E}/Not%20A%20Name`)).body.error.field).toBe('name')
    expect((await c.get(`${E}/tools?scope=everyone`)).body.error.field).toBe('scope')
    expect((await c.get(`${E}/tools/files?depth=3`)).body.error.field).toBe('depth')
    expect((await c.get(`${E}/nope`)).status).toBe(404)
  })
})

describe('the command box', () => {
  let id: string

  it('runs a command as the person, shows its output and audits it under their name', async () => {
    const c = team.member.client
    const run = await c.post(`${E}/tools/commands`, {
      command: 'mkdir -p src && echo hello > src/a.txt && cat src/a.txt',
    })
    expect(run.status).toBe(200)
    expect(run.body).toMatchObject({ decision: 'allowed', result: { exitCode: 0, stdout: 'hello\n' } })
    // The files it changed (watched like the agent's commands), the folder itself not an event.
    expect(run.body.files).toEqual([expect.objectContaining({ type: 'create', path: 'src/a.txt' })])
    id = run.body.environmentId
    const files = await c.get(`${E}/${id}/files`)
    expect(files.body.entries).toEqual(
      expect.arrayContaining([
        { path: 'src', type: 'folder', size: 0 },
        { path: 'src/a.txt', type: 'file', size: 6 },
      ]),
    )
    const file = await c.get(`${E}/tools/file?path=src/a.txt`)
    expect(file.body).toMatchObject({ path: 'src/a.txt', content: 'hello', totalLines: 1 })
    const audit = await c.get(`${E}/${id}/audit?kinds=command`)
    expect(audit.body.entries[0]).toMatchObject({
      kind: 'command',
      decision: 'allowed',
      exitCode: 0,
      actor: { id: team.member.id, name: team.member.name },
    })
    const listed = (await c.get(E)).body.environments.find((e: any) => e.name === 'tools')
    expect(listed).toMatchObject({ id, status: 'ready' })
    expect(listed.lastActivityAt).not.toBeNull()
  })

  it('refuses what the policy denies (audited), and runs what it asks about, since typing it is the approval', async () => {
    const c = team.member.client
    const denied = await c.post(`${E}/tools/commands`, { command: 'echo ok; sudo ls' })
    expect(denied.status).toBe(403)
    expect(denied.body.error).toMatchObject({ code: 'command_denied', field: 'command' })
    expect(denied.body.error.message).toMatch(/sudo/)
    const asked = await c.post(`${E}/tools/commands`, { command: 'git push origin main' })
    expect(asked.status).toBe(200)
    expect(asked.body).toMatchObject({ decision: 'approved', rule: expect.stringContaining('git push') })
    const audit = await c.get(`${E}/${id}/audit?limit=2`)
    expect(audit.body.entries.map((e: any) => e.decision)).toEqual(['approved', 'denied'])
    expect(audit.body.total).toBe(4)
    const older = await c.get(`${E}/${id}/audit?limit=2&before=${audit.body.nextCursor}`)
    // The first command and the file it made (kind change, recorded after it).
    expect(older.body.entries.map((e: any) => [e.kind, e.decision])).toEqual([
      ['change', 'allowed'],
      ['command', 'allowed'],
    ])
    expect(older.body.nextCursor).toBeNull()
    const commands = await c.get(`${E}/${id}/audit?kinds=command,write`)
    expect(commands.body.total).toBe(3)
  })

  it('answers bad input with a 400 naming the field and runs nothing', async () => {
    const c = team.member.client
    const before = (await c.get(`${E}/${id}/audit`)).body.total
    expect((await c.post(`${E}/tools/commands`, { command: '   ' })).body.error.field).toBe('command')
    expect((await c.post(`${E}/tools/commands`, { command: 'ls', extra: 1 })).body.error.field).toBe('extra')
    // A JSON number, not text or a boolean that happens to coerce to one.
    for (const timeoutSeconds of [0, '10', '1e1', true, 1.5]) {
      const answer = await c.post(`${E}/tools/commands`, { command: 'ls', timeoutSeconds })
      expect([answer.status, answer.body.error.field]).toEqual([400, 'timeoutSeconds'])
    }
    expect((await c.get(`${E}/tools/file?path=../../etc/passwd`)).body.error.field).toBe('path')
    expect((await c.get(`${E}/tools/file`)).body.error.field).toBe('path')
    expect((await c.get(`${E}/${id}/audit?limit=lots`)).body.error.field).toBe('limit')
    expect((await c.get(`${E}/${id}/audit?kinds=nope`)).body.error.field).toMatch(/^kinds/)
    expect((await c.get(`${E}/${id}/audit`)).body.total).toBe(before)
  })

  it('follows the truth table: a shared environment is used by its creator and admins, seen by members', async () => {
    const first = await team.creator.client.post(`${E}/team-box/commands`, {
      command: 'echo from-creator > who.txt',
    })
    expect(first.status).toBe(200)
    expect(
      (await team.admin.client.post(`${E}/team-box/commands`, { command: 'cat who.txt' })).body.result.stdout,
    ).toBe('from-creator\n')
    const member = await team.member.client.post(`${E}/team-box/commands`, { command: 'rm who.txt' })
    expect(member.status).toBe(403)
    expect((await team.member.client.get(`${E}/team-box/file?path=who.txt`)).body.content).toBe(
      'from-creator',
    )
    const listed = (await team.member.client.get(E)).body.environments.find((e: any) => e.name === 'team-box')
    expect(listed).toMatchObject({ status: 'ready', canUse: false })
    // Outside the org, or another person's personal environment: 404 for everything.
    expect(
      (await team.outsider.client.post(`${E}/${first.body.environmentId}/commands`, { command: 'ls' }))
        .status,
    ).toBe(404)
    expect((await team.outsider.client.get(`${E}/${first.body.environmentId}/audit`)).status).toBe(404)
    expect((await team.admin.client.get(`${E}/${id}/files`)).status).toBe(404)
    expect((await team.admin.client.post(`${E}/${id}/commands`, { command: 'ls' })).status).toBe(404)
  })
})
