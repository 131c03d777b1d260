/**
 * The deployment's ceilings on every environment (decision 0482), attacked as someone who signed up
 * would: they own an organisation, so its ceilings (Settings → Agent) are theirs to raise, up to the
 * schema's 100 GiB of disk, 16 GiB of memory and 4096 processes per environment, two hundred
 * environments each. ENVIRONMENT_MAX_* bound what any organisation may set or use.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import type { TeamPerson } from '#tests/support/team.ts'

const E = '/_agent-native/environments'
const R = '/_agent-native/resources'
const SETTINGS = '/_agent-native/org-settings'
const MiB = 1024 * 1024

let agent: AgentApp
let attacker: TeamPerson

beforeAll(async () => {
  agent = await startAgentApp({
    key: 'sk-ant-deployment-ceilings-0482',
    environmentsDir: 'clockwork-envs-ceilings-',
    env: {
      ENVIRONMENT_MAX_DISK_MB: '4',
      ENVIRONMENT_MAX_MEMORY_MB: '512',
      ENVIRONMENT_MAX_PROCESSES: '64',
      ORG_MAX_DISK_MB: '10',
    },
  })
  attacker = agent.team.outsider
}, 240_000)
afterAll(() => agent?.close())

async function define(name: string, frontmatter: string) {
  const res = await attacker.client.put(`${R}/personal/environments/${name}.md`, `---\n${frontmatter}\n---\n`)
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
}

async function run(command: string, env: string) {
  const res = await attacker.client.post(`${E}/${env}/commands`, { command })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.result as { stdout: string; stderr: string; exitCode: number | null }
}

describe("an organisation's owner cannot take more of the host than the deployment allows", () => {
  it('raising the org ceilings above the deployment is a 400 naming each limit and its variable', async () => {
    const res = await attacker.client.patch(SETTINGS, {
      execLimits: { diskMb: 102400, memoryMb: 16384, processes: 4096, timeoutSeconds: 60 },
    })
    expect(res.status).toBe(400)
    expect(res.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'execLimits.diskMb',
      'execLimits.memoryMb',
      'execLimits.processes',
    ])
    expect(res.body.error.message).toMatch(/at most 4 \(ENVIRONMENT_MAX_DISK_MB\)/)
    expect(res.body.error.message).toMatch(/ENVIRONMENT_MAX_MEMORY_MB/)
    expect(res.body.error.message).toMatch(/ENVIRONMENT_MAX_PROCESSES/)
    // Nothing of the refused change was stored, not even its allowed part.
    const after = await attacker.client.get(SETTINGS)
    expect(after.body.settings.execLimits).toEqual({})
  })

  it('an environment asking more disk, under org ceilings stored above the deployment, gets the deployment’s', async () => {
    // Ceilings saved before the operator lowered the deployment's are clamped at use, not trusted.
    await agent.app.server.db.db.execute(sql`
      insert into org_settings (org_id, settings)
      values (${agent.team.outsiderOrgId}, ${JSON.stringify({ execLimits: { diskMb: 102400 } })}::jsonb)
      on conflict (org_id) do update set settings = excluded.settings`)
    await define('hoard', 'limits: { diskMb: 100 }')
    const result = await run(`head -c ${8 * MiB} /dev/zero > big; echo "exit=$?"; stat -c %s big`, 'hoard')
    const written = Number(result.stdout.trim().split('\n').at(-1))
    expect(written, JSON.stringify(result)).toBeLessThanOrEqual(4 * MiB)
    expect(result.stdout).not.toMatch(/exit=0/)
  }, 60_000)
})

describe('one command cannot write past its environment’s disk quota', () => {
  it('file after file, each within the per-file limit, is stopped once the folder is over its quota', async () => {
    await define('filler', 'limits: { diskMb: 4 }')
    // Two hundred files of 3 MiB, each under the 4 MiB a file may have, paced a little: 600 MiB of
    // the host's disk, the database's among it, if nothing stops the command before its timeout.
    const result = await run(
      'for i in $(seq 1 200); do head -c 3145728 /dev/zero > f$i; sleep 0.1; done; echo finished',
      'filler',
    )
    expect(result.stdout).not.toMatch(/finished/)
    expect(result.stderr).toMatch(/stopped: the environment went over its disk quota while the command ran/)
    const { disk } = result as unknown as { disk: { usedBytes: number; overQuota: boolean } }
    expect(disk.overQuota).toBe(true)
    // It wrote on until a measurement found it over: a few files past the quota, not two hundred.
    expect(disk.usedBytes).toBeLessThan(200 * MiB)
    // And the next command that would write is refused, as after any command that ends over quota.
    const next = await attacker.client.post(`${E}/filler/commands`, { command: 'echo more > more.txt' })
    expect(next.status).toBe(507)
  }, 90_000)
})

describe('an organisation’s environments together hold at most ORG_MAX_DISK_MB', () => {
  it('environment after environment, each within its own quota, stops at the total; deleting files makes room', async () => {
    // The owner of organisation A, which is not the attacker's above: its disk is untouched so far.
    const { client } = agent.team.owner
    const command = async (env: string, line: string) => {
      const res = await client.post(`${E}/${env}/commands`, { command: line })
      return res as {
        status: number
        body: { result?: { stdout: string; disk: { usedBytes: number } }; error?: { message: string } }
      }
    }
    const define = async (name: string) => {
      const put = await client.put(
        `${R}/personal/environments/${name}.md`,
        '---\nlimits: { diskMb: 4 }\n---\n',
      )
      expect(put.status, JSON.stringify(put.body)).toBeLessThan(300)
    }
    // 3 MiB each, within every environment's own 4 MiB: 12 MiB if only those quotas held.
    const fill = 'head -c 3145728 /dev/zero > part; echo "exit=$?"'
    const used: number[] = []
    for (const name of ['part-1', 'part-2', 'part-3']) {
      await define(name)
      const res = await command(name, fill)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.result!.stdout).toMatch(/exit=0/)
      used.push(res.body.result!.disk.usedBytes)
    }
    // The fourth has less than a mebibyte left of the ten: refused before it runs, told why.
    await define('part-4')
    const refused = await command('part-4', fill)
    expect(refused.status, JSON.stringify(refused.body)).toBe(507)
    expect(refused.body.error!.message).toMatch(
      /together they may hold 10\.0 MiB on this server \(ORG_MAX_DISK_MB\)/,
    )
    expect(used.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10 * MiB)
    // The agent's file write there is refused the same way, saying why.
    agent.fake.reply(toolUse('write_file', { environment: 'part-4', path: 'notes.md', content: 'a note' }))
    const chat = await sendChat(client, { message: userText('write a note in part-4') })
    expect(toolParts(chat.reply, 'write_file')[0].output).toMatchObject({
      ok: false,
      error: {
        status: 507,
        message: expect.stringMatching(/together they may hold 10\.0 MiB.*\(ORG_MAX_DISK_MB\)/),
      },
    })
    // The total, as the Environments list and Settings → Usage read it: the three sizes recorded.
    const held = used.reduce((a, b) => a + b, 0)
    expect((await client.get(E)).body.disk).toEqual({ usedBytes: held, limitBytes: 10 * MiB })
    expect((await client.get('/_agent-native/usage')).body.usage.environmentDisk).toEqual({
      used: held,
      limit: 10 * MiB,
    })
    // Deleting in one of them (a command that frees space runs over quota) makes room in another.
    expect((await command('part-1', 'rm part')).status).toBe(200)
    const after = await command('part-4', fill)
    expect(after.status, JSON.stringify(after.body)).toBe(200)
    expect(after.body.result!.stdout).toMatch(/exit=0/)
  }, 90_000)
})

describe('commands running at once in several environments share the organisation’s total', () => {
  it('four commands, each started with room and within its own quota, are stopped at the total', async () => {
    // A fresh organisation of the plain member's own: nothing held yet, so each of the four opens
    // with the whole 10 MiB as its room.
    const { client } = agent.team.member
    const created = await client.post('/_agent-native/auth/organization/create', {
      name: 'Disk Race',
      slug: 'disk-race-0498',
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    await client.post('/_agent-native/auth/organization/set-active', { organizationId: created.body.id })
    const names = ['race-1', 'race-2', 'race-3', 'race-4']
    for (const name of names) {
      const put = await client.put(
        `${R}/personal/environments/${name}.md`,
        '---\nlimits: { diskMb: 4 }\n---\n',
      )
      expect(put.status, JSON.stringify(put.body)).toBeLessThan(300)
    }
    // 3.5 MiB each, a quarter of a mebibyte a second: 14 MiB of the organisation's 10 if each
    // command were bounded only by the room it opened with. Together they pass the total after ten
    // seconds of their fourteen; each tells the others its size every quarter of a mebibyte
    // (decision 0528), so a watch slowed by a loaded machine still has time to act.
    const line = 'for i in $(seq 1 14); do head -c 262144 /dev/zero > f$i; sleep 1; done; echo finished'
    const results = await Promise.all(
      names.map((name) => client.post(`${E}/${name}/commands`, { command: line })),
    )
    type Result = { stdout: string; stderr: string; disk: { usedBytes: number } }
    for (const res of results) expect(res.status, JSON.stringify(res.body)).toBe(200)
    const outcomes = results.map((res) => res.body.result as Result)
    const stopped = outcomes.filter((r) => /stopped: the environment went over its disk quota/.test(r.stderr))
    expect(stopped.length, JSON.stringify(outcomes.map((r) => r.stderr))).toBeGreaterThan(0)
    // (A command stopped as it wrote its last file may still have said "finished".)
    expect(stopped[0]!.stderr).toMatch(/together they may hold 10\.0 MiB on this server \(ORG_MAX_DISK_MB\)/)
    const held = outcomes.reduce((sum, r) => sum + r.disk.usedBytes, 0)
    expect(held).toBeLessThan(14 * MiB)
    // The Environments page's total is the sizes recorded as the commands ended.
    expect((await client.get(E)).body.disk).toEqual({ usedBytes: held, limitBytes: 10 * MiB })
  }, 90_000)
})
