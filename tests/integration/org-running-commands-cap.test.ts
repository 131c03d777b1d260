/**
 * USER_MAX_RUNNING_COMMANDS bounds one person's commands at once, but with open sign-up an
 * organisation's owner can invite as many accounts of their own as they like, each with its own
 * share: six accounts ran twelve held commands at once where the person limit was two. An
 * organisation now runs at most ORG_MAX_RUNNING_COMMANDS at once on an instance, all its members
 * together; the next wait their turn, past four times as many waiting the next is refused with a
 * 429 naming the organisation's limit, and another organisation's command is not held by any of it
 * (decision 0485).
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { environmentTemplate } from '#server/environments/definition/definition.ts'
import { ApiClient } from '#tests/support/api-client.ts'
import { sharedPostgres, spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts'

const PERSON_CAP = 2
const ORG_CAP = 2
const ACCOUNTS = 6
const COMMANDS = '/_agent-native/environments/box/commands?scope=personal'

let dir: string
let server: SpawnedServer
let accounts: ApiClient[]
let bob: ApiClient

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-org-running-cap-'))
  chmodSync(dir, 0o755) // the sandbox user enters it
  server = await spawnServer(
    {
      SCHEDULER_ENABLED: 'false',
      USER_MAX_RUNNING_COMMANDS: String(PERSON_CAP),
      ORG_MAX_RUNNING_COMMANDS: String(ORG_CAP),
      ENVIRONMENTS_DIR: dir,
    },
    sharedPostgres(inject('postgresUrl')),
  )
  const owner = new ApiClient(server.baseUrl)
  await owner.signUp('Mallory Owner', 'mallory-org-owner@example.com')
  const orgId = (await owner.get('/_agent-native/auth/get-session')).body.session.activeOrganizationId
  accounts = [owner]
  // Mallory's own free accounts, invited into her organisation.
  for (let i = 1; i < ACCOUNTS; i++) {
    const sock = new ApiClient(server.baseUrl)
    const email = `mallory-sock-${i}@example.com`
    await sock.signUp(`Mallory Sock ${i}`, email)
    const invite = await owner.post('/_agent-native/auth/organization/invite-member', {
      email,
      role: 'member',
      organizationId: orgId,
    })
    expect(invite.status).toBe(200)
    const accept = await sock.post('/_agent-native/auth/organization/accept-invitation', {
      invitationId: invite.body.id,
    })
    expect(accept.status).toBe(200)
    await sock.post('/_agent-native/auth/organization/set-active', { organizationId: orgId })
    accounts.push(sock)
  }
  bob = new ApiClient(server.baseUrl)
  await bob.signUp('Bob Elsewhere', 'bob-elsewhere-org@example.com')
  for (const [who, name] of [...accounts.map((a) => [a, 'box'] as const), [bob, 'own'] as const]) {
    const put = await who.put(
      `/_agent-native/resources/personal/environments/${name}.md`,
      environmentTemplate(name),
    )
    expect(put.status).toBe(201)
  }
}, 240_000)
afterAll(async () => {
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** Every file below ENVIRONMENTS_DIR named like `match`. */
const filesBelow = (match: (name: string) => boolean) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => match(path.basename(p)))

describe("an organisation's commands at once", () => {
  it(`run ${ORG_CAP} at a time across all its members, wait their turn, and past that are refused`, async () => {
    for (const who of accounts) {
      const marked = await who.post(COMMANDS, { command: 'touch .box-marker' })
      expect(marked.status).toBe(200)
    }
    const boxes = filesBelow((name) => name === '.box-marker').map((p) => path.join(dir, path.dirname(p)))
    expect(boxes).toHaveLength(ACCOUNTS)
    const running = () => filesBelow((name) => name.startsWith('running.')).length

    // Each marks itself running and is held until the test writes `release` in its folder.
    const command = 'm=$(mktemp -p . running.XXXXXX); until [ -e release ]; do sleep 0.1; done; rm -f "$m"'
    // Each account sends as many as its own limit allows at once: twelve in all.
    const sent = ACCOUNTS * PERSON_CAP
    const refusedAtOnce = sent - ORG_CAP - ORG_CAP * 4
    let settled = 0
    const answers = accounts.flatMap((who) =>
      Array.from({ length: PERSON_CAP }, () => who.post(COMMANDS, { command }).finally(() => settled++)),
    )
    // Those past the organisation's waiting room are answered at once; the rest are held.
    await vi.waitFor(() => expect(settled).toBe(refusedAtOnce), { timeout: 60_000, interval: 50 })
    await vi.waitFor(() => expect(running()).toBe(ORG_CAP), { timeout: 60_000, interval: 50 })

    // Another organisation's command runs at once.
    const own = await bob.post('/_agent-native/environments/own/commands?scope=personal', {
      command: 'echo beside',
    })
    expect(own.status).toBe(200)
    expect(own.body.result.stdout).toContain('beside')
    expect(running()).toBe(ORG_CAP)

    for (const box of boxes) writeFileSync(path.join(box, 'release'), '')
    const done = await Promise.all(answers)
    const refused = done.filter((res) => res.status === 429)
    expect(refused).toHaveLength(refusedAtOnce)
    expect(refused[0]!.body.error).toMatchObject({ code: 'too_many_commands' })
    expect(refused[0]!.body.error.message).toContain(`Your organisation has ${ORG_CAP} commands running`)
    const ran = done.filter((res) => res.status === 200)
    expect(ran).toHaveLength(sent - refusedAtOnce)
    for (const res of ran) expect(res.body.result.exitCode).toBe(0)
  }, 240_000)
})
