/**
 * The environment file routes (`/file`, `/files`) against the spellings and special files a member
 * controls: every path inside an environment is hostile (docs/security.md). Each probe is a request
 * a member makes, or a command that plants something first, and must stay inside the folder,
 * answer at once, and never 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { ApiClient } from '#tests/support/api-client.ts'

const R = '/_agent-native/resources'
const E = '/_agent-native/environments'

let agent: AgentApp
let member: ApiClient

beforeAll(async () => {
  agent = await startAgentApp({ key: 'sk-ant-file-paths-0001', environmentsDir: 'clockwork-file-paths-' })
  member = agent.team.member.client
  expect((await member.put(`${R}/personal/environments/paths.md`, '---\n---\nPaths.')).status).toBe(201)
  const plant = [
    'echo inside > ok.txt',
    'ln -s /etc/passwd passwd',
    'ln -s /proc/self/environ environ',
    'ln -s .. up',
    'mkfifo pipe',
    "printf 'x' > \"$(printf 'ctl\\001name')\"",
  ].join(' && ')
  const made = await member.post(`${E}/paths/commands`, { command: plant })
  expect(made.status).toBe(200)
  expect(made.body.result.exitCode).toBe(0)
}, 60_000)
afterAll(() => agent?.close())

const read = (path: string) => member.get(`${E}/paths/file?path=${path}`)

describe('the file route refuses every way out', () => {
  it.each([
    ['..', '../../../etc/passwd', 400],
    ['an absolute path', '/etc/passwd', 400],
    ['a home path', '~/x', 400],
    ['percent-encoded separators', '..%2f..%2fetc%2fpasswd', 400],
    ['double-encoded separators (a name, not a path)', '..%252f..%252fetc%252fpasswd', 404],
    ['backslashes (a name on Linux)', '..%5c..%5cetc%5cpasswd', 404],
    ['a NUL', 'ok.txt%00.md', 400],
    ['a link to a host file', 'passwd', 400],
    ['a link into /proc', 'environ', 400],
    ['a link to the parent, then a name', 'up/passwd', 400],
    ['a FIFO nobody writes', 'pipe', 400],
    ['a path past the length limit', 'a/'.repeat(600), 400],
  ])('%s', async (_what, path, status) => {
    const res = await read(path)
    expect(res.status).toBe(status)
    expect(JSON.stringify(res.body)).not.toMatch(/root:x:0:0|PATH=/)
  })

  it('reads a file named with a control character, and an ordinary one', async () => {
    expect((await read('ok.txt')).body.content).toBe('inside')
    expect((await read(encodeURIComponent('ctl\u0001name'))).body.content).toBe('x')
  })

  it('lists links and the FIFO as what they are, without entering them', async () => {
    const res = await member.get(`${E}/paths/files`)
    expect(res.status).toBe(200)
    const types = Object.fromEntries(res.body.entries.map((e: any) => [e.path, e.type]))
    expect(types).toMatchObject({ passwd: 'symlink', environ: 'symlink', up: 'symlink', pipe: 'other' })
    expect(Object.keys(types).some((p) => p.startsWith('up/'))).toBe(false)
    expect((await member.get(`${E}/paths/files?path=up`)).status).toBe(400)
  })

  it('lists a folder of 50,000 entries a command made: the first 1,000, saying it is cut', async () => {
    const made = await member.post(`${E}/paths/commands`, {
      command: 'mkdir many && cd many && seq 1 50000 | xargs touch && ls | wc -l',
    })
    expect(made.body.result).toMatchObject({ exitCode: 0, stdout: '50000\n' })
    const res = await member.get(`${E}/paths/files?path=many`)
    expect(res.status).toBe(200)
    expect(res.body.entries).toHaveLength(1000)
    expect(res.body.truncated).toBe(true)
    expect(res.body.entries.every((e: any) => e.path.startsWith('many/') && e.type === 'file')).toBe(true)
  }, 60_000)
})
