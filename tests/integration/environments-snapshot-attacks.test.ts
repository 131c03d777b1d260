/**
 * What a member's setup leaves in a snapshot, as the attacks a member makes (docs/security.md,
 * "The server never follows a tenant's links" and "Limits per environment"). A snapshot is taken
 * by default after every setup and restored whenever the ready marker is gone, so whatever the
 * folder holds is written back by the server, outside any command's limits.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, lstatSync, rmSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { snapshotName } from '#server/environments/bootstrap/snapshot.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'

const R = '/_agent-native/resources'
const E = '/_agent-native/environments'
const MiB = 1024 * 1024

let agent: AgentApp
let dir: string

beforeAll(async () => {
  agent = await startAgentApp({
    key: 'sk-ant-snapshot-0001',
    environmentsDir: 'clockwork-snapshot-attacks-',
    env: (made) => {
      dir = made
      return { ENVIRONMENT_SNAPSHOTS_DIR: path.join(made, 'snapshots') }
    },
  })
}, 60_000)
afterAll(() => agent?.close())

const rowOf = async (name: string) => {
  const [row] = await queryRows<{ id: string; dir: string }>(
    agent.app.server.db.db,
    sql`select id, dir from environments where name = ${name}`,
  )
  return { id: row!.id, root: path.join(dir, 'environments', row!.dir) }
}
const rootOf = async (name: string) => (await rowOf(name)).root
const snapshots = () => path.join(dir, 'snapshots')
/** Blocks the tree really holds on the host's disk (not the files' apparent sizes). */
const diskBytes = (root: string) =>
  Number(execFileSync('du', ['-s', '-B1', root], { encoding: 'utf8' }).split('\t')[0])

/** Twelve 8 MiB sparse files in an 8 MiB environment: each within the per-file limit, no disk used. */
const SPARSE_SETUP = [
  '---',
  'limits: { diskMb: 8 }',
  'setup:',
  '  - "for i in $(seq 1 12); do truncate -s 8M sparse$i; done"',
  '---',
  'Sparse files.',
].join('\n')

describe('a snapshot of sparse files', () => {
  it('is restored as holes: a setup of twelve 8 MiB sparse files does not become 96 MiB on the host', async () => {
    const member = agent.team.member.client
    expect((await member.put(`${R}/personal/environments/holes.md`, SPARSE_SETUP)).status).toBe(201)
    expect((await member.post(`${E}/holes/commands`, { command: 'ls' })).status).toBe(200)
    const root = await rootOf('holes')
    expect(diskBytes(root)).toBeLessThan(8 * MiB)

    // The member removes the ready marker (rm runs even over quota): the next use restores.
    const wipe = await member.post(`${E}/holes/commands`, { command: 'rm .environment-ready' })
    expect(wipe.status).toBe(200)
    const again = await member.post(`${E}/holes/commands`, { command: 'ls sparse12' })
    expect(again.status).toBe(200)
    const record = (await member.get(`${E}/holes/bootstrap`)).body.bootstrap
    expect(record).toMatchObject({ status: 'ready', restoredFrom: 'snapshot' })

    expect(lstatSync(path.join(root, 'sparse12')).size).toBe(8 * MiB) // restored, same length
    expect(diskBytes(root)).toBeLessThan(8 * MiB) // and still holes, not 96 MiB of zeros
  }, 120_000)
})

describe('a snapshot taken before sparse files were kept sparse', () => {
  it('is not restored but removed, and setup runs again: the old zeros never reach the host', async () => {
    const member = agent.team.member.client
    expect((await member.put(`${R}/personal/environments/old.md`, SPARSE_SETUP)).status).toBe(201)
    expect((await member.post(`${E}/old/commands`, { command: 'ls' })).status).toBe(200)
    const { id, root } = await rowOf('old')
    expect(existsSync(path.join(snapshots(), snapshotName(id)))).toBe(true)

    // What an earlier version left: the same folder archived without --sparse (holes as zeros),
    // under the name it used. The record still says a snapshot of this definition is fresh.
    rmSync(path.join(snapshots(), snapshotName(id)))
    const legacy = path.join(snapshots(), `${id}.tar.gz`)
    execFileSync('tar', ['-czf', legacy, '-C', root, '.'])
    expect(execFileSync('tar', ['-tvzf', legacy], { encoding: 'utf8' })).toContain('sparse12')

    const wipe = await member.post(`${E}/old/commands`, { command: 'rm .environment-ready' })
    expect(wipe.status).toBe(200)
    const again = await member.post(`${E}/old/commands`, { command: 'ls sparse12' })
    expect(again.status).toBe(200)
    const record = (await member.get(`${E}/old/bootstrap`)).body.bootstrap
    expect(record.status).toBe('ready')
    expect(record.restoredFrom).toBeUndefined() // setup ran: the old tarball was not used
    expect(record.steps).toHaveLength(1)
    expect(diskBytes(root)).toBeLessThan(8 * MiB)
    expect(existsSync(legacy)).toBe(false)
    expect(existsSync(path.join(snapshots(), snapshotName(id)))).toBe(true) // a new one, sparse
  }, 120_000)
})
