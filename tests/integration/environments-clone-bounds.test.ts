/**
 * A build's clone (a git source, a `{kind: git}` skill) runs on the host, outside the sandbox: the
 * attacks are a member's repository that checks out far larger than it travels, and a git server
 * that never answers. Git compresses one repeated letter ~600:1, so a repository of ~160 KB checks
 * out as 96 MiB; unbounded, the clone wrote all of it into an environment whose quota was 4 MiB
 * (and past the organisation's 8 MiB), and a silent server held the build and its git processes
 * for good. The safe outcome: the clone has a command's bounds (decision 0509), so the build fails
 * with the 507 a command gets over its quota, naming what was too large and which limit, leaves
 * nothing on the disk; and a clone that hangs is stopped at the environment's command timeout or
 * when the build is cancelled, git's own processes (git-remote-https here) with it.
 *
 * The repositories are served by file:// under ENVIRONMENT_LOCAL_ROOT (an admin's, as in
 * environments-links.test.ts); the same ones over https reach any member's build. The silent
 * server sits on loopback, which no definition may name: the clone is run directly, pinned there,
 * as environments-git-pin.test.ts does.
 */
import { execFileSync } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { runClone } from '#server/environments/bootstrap/clone.ts'
import { DEFAULT_LIMITS } from '#server/environments/exec/exec-schema.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'

const R = '/_agent-native/resources'
const E = '/_agent-native/environments'
const MiB = 1024 * 1024

let agent: AgentApp
let dir: string
let repos: string
let oneFile: string
let manyFiles: string
let localBig: string

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-clone-bounds-'))
  chmodSync(dir, 0o711) // the sandbox uid must be able to enter it
  repos = path.join(dir, 'repos')
  mkdirSync(repos, { mode: 0o755 })
  // Made before the app starts: git blocks this process for seconds, and a kept-alive connection
  // to the app idling meanwhile would be reset under the next request.
  oneFile = compressedRepo('one-file', { 'bomb.bin': 96 })
  manyFiles = compressedRepo('many-files', { 'a.bin': 3, 'b.bin': 3, 'c.bin': 3 })
  // An admin's local source: a folder of the operator's, larger together than the quota.
  localBig = path.join(repos, 'local-big')
  mkdirSync(localBig, { mode: 0o755 })
  for (const name of ['a.bin', 'b.bin', 'c.bin'])
    writeFileSync(path.join(localBig, name), Buffer.alloc(3 * MiB, 'A'))
  execFileSync('chmod', ['-R', 'a+rX', localBig])
  agent = await startAgentApp({
    key: 'sk-ant-clone-bounds',
    env: {
      ENVIRONMENTS_DIR: path.join(dir, 'environments'),
      ENVIRONMENT_LOCAL_ROOT: repos,
      ENVIRONMENT_MAX_DISK_MB: '8',
      ORG_MAX_DISK_MB: '8',
    },
  })
}, 120_000)
afterAll(async () => {
  await agent?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A bare repository under ENVIRONMENT_LOCAL_ROOT holding `files` (name → MiB of one letter). */
function compressedRepo(name: string, files: Record<string, number>): string {
  const work = path.join(dir, `work-${name}`)
  mkdirSync(work)
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: work })
  git('init', '-q', '-b', 'main')
  // Not zeros: git's checkout writes runs of zeros as holes. One letter compresses as well.
  for (const [file, mib] of Object.entries(files))
    writeFileSync(path.join(work, file), Buffer.alloc(mib * MiB, 'A'))
  git('add', '-A')
  git('commit', '-q', '-m', 'large')
  const bare = path.join(repos, `${name}.git`)
  execFileSync('git', ['clone', '-q', '--bare', work, bare])
  execFileSync('git', ['gc', '-q', '--aggressive'], { cwd: bare })
  execFileSync('chmod', ['-R', 'a+rX', repos])
  return bare
}

/** The environment's folder, and the blocks the folder of all of its owner's environments takes. */
async function onDisk(name: string) {
  const [row] = await queryRows<{ dir: string }>(
    agent.app.server.db.db,
    sql`select dir from environments where name = ${name}`,
  )
  const root = path.join(dir, 'environments', row!.dir)
  const owner = path.dirname(root) // the staging folders sit here, beside the environment
  const blocks = Number(execFileSync('du', ['-s', '-B1', owner]).toString().split('\t')[0])
  return { root, owner, blocks }
}

describe("a build's clone", () => {
  it('of a source holding one file larger than the quota fails with a 507 and leaves nothing', async () => {
    const admin = agent.team.admin.client
    const definition = [
      '---',
      `source: { type: git, url: "file://${oneFile}" }`,
      'limits: { diskMb: 4 }',
      '---',
      'x',
    ]
    expect((await admin.put(`${R}/personal/environments/one-file.md`, definition.join('\n'))).status).toBe(
      201,
    )

    const used = await admin.post(`${E}/one-file/commands`, { command: 'du -sh .' })
    expect(used.status).toBe(507)
    expect(used.body.error.code).toBe('over_quota')
    expect(used.body.error.field).toBe('source.url')
    // What was too large and which limit: a file over the 4 MiB a command may write.
    expect(used.body.error.message).toMatch(
      /source\.url: the clone of file:.* holds a file larger than 4\.0 MiB/,
    )
    expect(used.body.error.message).toContain('limits.diskMb')

    const { root, owner, blocks } = await onDisk('one-file')
    expect(readdirSync(root)).toEqual([])
    expect(readdirSync(owner).filter((entry) => entry.startsWith('.staging-'))).toEqual([])
    expect(blocks).toBeLessThanOrEqual(8 * MiB)
  }, 180_000)

  it('of a skill whose files each fit but together do not fails with a 507 and leaves nothing', async () => {
    const admin = agent.team.admin.client
    const definition = [
      '---',
      `skills: [{ kind: git, repo: "file://${manyFiles}" }]`,
      'limits: { diskMb: 4 }',
      '---',
      'x',
    ]
    expect((await admin.put(`${R}/personal/environments/many-files.md`, definition.join('\n'))).status).toBe(
      201,
    )

    const used = await admin.post(`${E}/many-files/commands`, { command: 'du -sh .' })
    expect(used.status).toBe(507)
    expect(used.body.error.code).toBe('over_quota')
    expect(used.body.error.field).toBe('skills.0.repo')
    expect(used.body.error.message).toMatch(
      /skills\.0\.repo: the clone of file:.* (was stopped at|takes) [\d.]+ MiB, over the environment's disk quota of 4\.0 MiB \(limits\.diskMb/,
    )

    const { root, owner, blocks } = await onDisk('many-files')
    expect(readdirSync(root)).not.toContain('.skills')
    expect(readdirSync(owner).filter((entry) => entry.startsWith('.staging-'))).toEqual([])
    expect(blocks).toBeLessThanOrEqual(8 * MiB)
  }, 180_000)
})

describe("an admin's local source", () => {
  it('larger than the quota is copied with the same bounds: a 507 naming source.path, and nothing left', async () => {
    const admin = agent.team.admin.client
    const definition = [
      '---',
      `source: { type: local, path: "${localBig}" }`,
      'limits: { diskMb: 4 }',
      '---',
      'x',
    ]
    expect((await admin.put(`${R}/personal/environments/local-big.md`, definition.join('\n'))).status).toBe(
      201,
    )

    const used = await admin.post(`${E}/local-big/commands`, { command: 'du -sh .' })
    expect(used.status).toBe(507)
    expect(used.body.error.code).toBe('over_quota')
    expect(used.body.error.field).toBe('source.path')
    expect(used.body.error.message).toMatch(
      /source\.path: the copy of .*local-big (was stopped at|takes) [\d.]+ MiB, over the environment's disk quota of 4\.0 MiB \(limits\.diskMb/,
    )

    const { root, owner, blocks } = await onDisk('local-big')
    expect(readdirSync(root)).toEqual([])
    expect(readdirSync(owner).filter((entry) => entry.startsWith('.staging-'))).toEqual([])
    expect(blocks).toBeLessThanOrEqual(8 * MiB)
  }, 180_000)
})

describe('a clone from a git server that never answers', () => {
  let server: net.Server
  let port: number
  let work: string
  const open = new Set<net.Socket>()
  let connected: () => void = () => {}

  beforeAll(async () => {
    work = mkdtempSync(path.join(dir, 'silent-'))
    chmodSync(work, 0o777) // git runs as the sandbox uid
    // Accepts the connection and says nothing: git-remote-https waits in the TLS handshake.
    server = net.createServer((socket) => {
      open.add(socket)
      socket.on('close', () => open.delete(socket))
      socket.on('error', () => {})
      socket.resume() // read (and drop) the handshake, so the peer's end is seen
      connected()
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    port = (server.address() as net.AddressInfo).port
  })
  afterAll(() => {
    for (const socket of open) socket.destroy()
    server?.close()
  })

  const clone = (target: string, timeoutSeconds: number, signal?: AbortSignal) =>
    runClone(
      {
        url: `https://git.example.org:${port}/acme/app.git`,
        dir: target,
        cwd: work,
        depth: 1,
        field: 'source.url',
      },
      { host: 'git.example.org', port, addresses: ['127.0.0.1'] },
      (text) => text,
      { root: work, limits: { ...DEFAULT_LIMITS, timeoutSeconds }, heldBytes: 0, signal },
    )

  it("is stopped at the environment's command timeout, git-remote-https with it", async () => {
    await expect(clone('timed', 1)).rejects.toMatchObject({
      status: 400,
      field: 'source.url',
      message: expect.stringContaining("took longer than 1 s, the environment's command timeout"),
    })
    // The connection closes only when the process holding it (git-remote-https) is gone.
    await expect.poll(() => open.size, { timeout: 10_000 }).toBe(0)
  }, 30_000)

  it('is stopped when the build is cancelled, git-remote-https with it', async () => {
    const cancel = new AbortController()
    let cloning: { pid: number; pgid: number; args: string }[] = []
    connected = () => {
      cloning = processesFor(`:${port}/acme/app.git`)
      cancel.abort()
    }
    // A timeout far past the test's own: only the cancel can end this clone in time.
    await expect(clone('cancelled', 3600, cancel.signal)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('was stopped: the build was cancelled'),
    })
    // git and the helper it started are one process group, led by git: the group the stop kills.
    const git = cloning.find((p) => /\bgit clone\b/.test(p.args))
    expect(cloning.some((p) => p.args.includes('remote-https'))).toBe(true)
    expect(cloning.every((p) => p.pgid === git?.pid)).toBe(true)
    await expect.poll(() => open.size, { timeout: 10_000 }).toBe(0)
  }, 30_000)
})

/** The processes whose command line holds `text`, with their process group. */
function processesFor(text: string) {
  return execFileSync('ps', ['-eo', 'pid=,pgid=,args='])
    .toString()
    .split('\n')
    .filter((line) => line.includes(text))
    .map((line) => {
      const [, pid, pgid, args] = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line)!
      return { pid: Number(pid), pgid: Number(pgid), args: args! }
    })
}
