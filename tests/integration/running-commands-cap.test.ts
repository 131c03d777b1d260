/**
 * Each command a member runs in an environment is a process tree on the server and a watch that
 * lists its folder every second with a `find` child spawned from the server's loop. Nothing limited
 * how many one person ran at once: thirteen held commands sent together all ran together, and two
 * hundred would have been two hundred processes and two hundred `find`s a second. A person now runs
 * at most USER_MAX_RUNNING_COMMANDS at once on an instance; the next ones wait their turn, and
 * past four times as many waiting the next is refused with a 429 (decision 0410). Another person's
 * command is not held by any of it.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { environmentTemplate } from '#server/environments/definition/definition.ts'
import { ApiClient } from '#tests/support/api-client.ts'
import { sharedPostgres, spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts'

const CAP = 2
const COMMANDS = '/_agent-native/environments/box/commands?scope=personal'

let dir: string
let server: SpawnedServer
let mallory: ApiClient
let bob: ApiClient

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-running-cap-'))
  chmodSync(dir, 0o755) // the sandbox user enters it
  server = await spawnServer(
    { SCHEDULER_ENABLED: 'false', USER_MAX_RUNNING_COMMANDS: String(CAP), ENVIRONMENTS_DIR: dir },
    sharedPostgres(inject('postgresUrl')),
  )
  mallory = new ApiClient(server.baseUrl)
  await mallory.signUp('Mallory Many', 'mallory-many@example.com')
  bob = new ApiClient(server.baseUrl)
  await bob.signUp('Bob Beside', 'bob-beside@example.com')
  for (const [who, name] of [
    [mallory, 'box'],
    [bob, 'own'],
  ] as const) {
    const put = await who.put(
      `/_agent-native/resources/personal/environments/${name}.md`,
      environmentTemplate(name),
    )
    expect(put.status).toBe(201)
  }
}, 180_000)
afterAll(async () => {
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** The folder on this disk holding `name`, found below ENVIRONMENTS_DIR. */
function folderHolding(name: string): string {
  const found = readdirSync(dir, { recursive: true, encoding: 'utf8' }).find((p) => path.basename(p) === name)
  if (!found) throw new Error(`no folder below ${dir} holds ${name}`)
  return path.join(dir, path.dirname(found))
}

describe("one person's commands at once", () => {
  it(`run ${CAP} at a time, wait their turn, and past that are refused while another person's runs`, async () => {
    const marked = await mallory.post(COMMANDS, { command: 'touch .box-marker' })
    expect(marked.status).toBe(200)
    const box = folderHolding('.box-marker')
    const running = () => readdirSync(box).filter((name) => name.startsWith('running.')).length

    // Each marks itself running, is held until the test writes `release`, then says how many
    // were running beside it, its own included.
    const command =
      'm=$(mktemp -p . running.XXXXXX); until [ -e release ]; do sleep 0.1; done; ' +
      'ls running.* | wc -l; rm -f "$m"'
    const sent = CAP + CAP * 4 + 3
    let settled = 0
    const answers = Array.from({ length: sent }, () =>
      mallory.post(COMMANDS, { command }).finally(() => settled++),
    )
    // The three past the waiting room are answered at once; the rest are held.
    await vi.waitFor(() => expect(settled).toBe(3), { timeout: 60_000, interval: 50 })
    await vi.waitFor(() => expect(running()).toBe(CAP), { timeout: 60_000, interval: 50 })

    const own = await bob.post('/_agent-native/environments/own/commands?scope=personal', {
      command: 'echo beside',
    })
    expect(own.status).toBe(200)
    expect(own.body.result.stdout).toContain('beside')
    expect(running()).toBe(CAP)

    writeFileSync(path.join(box, 'release'), '')
    const done = await Promise.all(answers)
    const refused = done.filter((res) => res.status === 429)
    expect(refused).toHaveLength(3)
    expect(refused[0]!.body.error).toMatchObject({ code: 'too_many_commands' })
    expect(refused[0]!.body.error.message).toContain(`${CAP} commands running`)
    const ran = done.filter((res) => res.status === 200)
    expect(ran).toHaveLength(sent - 3)
    for (const res of ran) {
      expect(res.body.result.exitCode).toBe(0)
      expect(Number(res.body.result.stdout.trim())).toBeLessThanOrEqual(CAP)
    }
  }, 180_000)
})
