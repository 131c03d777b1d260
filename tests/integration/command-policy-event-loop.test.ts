/**
 * A command line a member sends to their own environment is judged by the policy on the server's
 * one event loop before anything runs. A pipeline made it quadratic: each stage listed the command
 * names of every stage before it, so the 16 KiB the route takes, `sudo | a | a …` in 4,000 stages,
 * held the loop for about 23 seconds (and the harness hook's 64 KiB for about eight minutes). The
 * line is refused for its `sudo` (403) and nothing runs. The server runs in its own process and is
 * asked for health again and again while the line is judged; every answer must come within the
 * hang guard.
 *
 * Expansions nested inside one another cost too: unbash reads each level's text again when it is
 * asked for, up to 256 levels, so 16 KiB of `"$(` took about half a second to refuse (64 KiB
 * through a harness hook, one to six seconds). They are now refused past eight levels, before the
 * deeper ones are read.
 *
 * The member's own policy is theirs to write too. A pattern's braces were expanded by expanding
 * each alternative together with all the text after it, so `{a,b}` ninety-nine times (a 497
 * character pattern; the schema takes 500) was 2^99 steps the first time a command met it: the
 * server never answered again. Each part is now expanded once.
 *
 * Bounded is not short, and a member can send many lines at once: forty 16 KiB lines of nested
 * substitutions, each judged within its budgets in a fraction of a second, held the loop for
 * seconds together. Lines are now judged in worker threads (policy/judge.ts), from source and in the
 * compiled server alike (where the worker is a bundle of its own). The workers are everyone's, so
 * they take the people waiting in turn: another member's command no longer waits for all forty.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { environmentTemplate } from '#server/environments/definition/definition.ts'
import { ApiClient } from '#tests/support/api-client.ts'
import { HANG_GUARD_MS, healthWhile, spawnTarget } from '#tests/support/health-probe.ts'
import type { ServerEntry, SpawnedServer } from '#tests/support/spawn-server.ts'

/** What the person's command route takes (PersonCommandInput). */
const LIMIT = 16_384

let server: SpawnedServer
let mallory: ApiClient

/** A target server with the attacker's own environment `box` on it. */
async function targetWithBox(who: string, entry: ServerEntry) {
  const target = await spawnTarget({ name: `Mallory ${who}`, email: `mallory-${who}@example.com` }, entry)
  const put = await target.attacker.put(
    '/_agent-native/resources/personal/environments/box.md',
    environmentTemplate('box'),
  )
  expect(put.status).toBe(201)
  // One command first: a server from source loads the command route's modules on its first use,
  // work of its own that is not the judge's.
  const warm = await target.attacker.post('/_agent-native/environments/box/commands?scope=personal', {
    command: 'echo warm',
  })
  expect(warm.status).toBe(200)
  return target
}

beforeAll(async () => {
  ;({ server, attacker: mallory } = await targetWithBox('policy', 'source'))
}, 180_000)
afterAll(() => server?.stop())

/** `start`, then `unit` repeated to fill the route's limit. */
const fill = (start: string, unit: string) =>
  start + unit.repeat(Math.floor((LIMIT - start.length) / unit.length))

describe('a command line the policy judges', () => {
  it('of 4,000 pipeline stages is refused while health answers', async () => {
    const command = fill('sudo', ' | a')
    const attempt = mallory.post('/_agent-native/environments/box/commands?scope=personal', { command })
    expect(await healthWhile(server.baseUrl, attempt, HANG_GUARD_MS)).toBeGreaterThan(0)
    const res = await attempt
    expect(res.status).toBe(403)
    expect(res.body.error).toMatchObject({ code: 'command_denied', field: 'command' })
    expect(res.body.error.message).toContain('builtin:privilege')
  }, 120_000)

  it('against a pattern of ninety-nine brace groups is judged while health answers', async () => {
    const hostile = `${'{a,b}'.repeat(99)} *`
    const definition = environmentTemplate('braces').replace(
      '    deny: []',
      `    deny: [${JSON.stringify(hostile)}, "ls *"]`,
    )
    const put = await mallory.put('/_agent-native/resources/personal/environments/braces.md', definition)
    expect(put.status).toBe(201)
    const attempt = mallory.post('/_agent-native/environments/braces/commands?scope=personal', {
      command: 'ls -la',
    })
    expect(await healthWhile(server.baseUrl, attempt, HANG_GUARD_MS)).toBeGreaterThan(0)
    const res = await attempt
    expect(res.status).toBe(403)
    expect(res.body.error.message).toContain('deny: ls *')
  }, 120_000)

  it('of "$( nested 3,276 deep is refused as too complex while health answers', async () => {
    const depth = Math.floor((LIMIT - 'sudo'.length) / '"$()"'.length)
    const command = `${'"$('.repeat(depth)}sudo${')"'.repeat(depth)}`
    const attempt = mallory.post('/_agent-native/environments/box/commands?scope=personal', { command })
    expect(await healthWhile(server.baseUrl, attempt, HANG_GUARD_MS)).toBeGreaterThan(0)
    const res = await attempt
    expect(res.status).toBe(403)
    expect(res.body.error.message).toContain('builtin:too-complex')
  }, 120_000)
})

describe('the judge, shared by everyone on the server', () => {
  it("takes another member's command before the rest of one member's forty lines", async () => {
    const bob = new ApiClient(server.baseUrl)
    await bob.signUp('Bob Bystander', 'bob-bystander@example.com')
    const put = await bob.put(
      '/_agent-native/resources/personal/environments/own.md',
      environmentTemplate('own'),
    )
    expect(put.status).toBe(201)

    const command = fill('sudo x; ', 'echo $(a $(a $(a $(a $(a $(a $(a $(a x)))))))); ')
    let settled = 0
    const flood = Array.from({ length: 40 }, () =>
      mallory
        .post('/_agent-native/environments/box/commands?scope=personal', { command })
        .finally(() => settled++),
    )
    // Once the first of Mallory's lines is answered, the rest are waiting for the judge.
    await vi.waitFor(() => expect(settled).toBeGreaterThan(0), { timeout: 60_000, interval: 20 })
    const own = await bob.post('/_agent-native/environments/own/commands?scope=personal', {
      command: 'echo bystander',
    })
    expect(own.status).toBe(200)
    expect(own.body.result.stdout).toContain('bystander')
    // First come, first served judged all forty first (a wait of seconds); taken in turn, Bob's
    // line waits for the one of Mallory's being judged.
    expect(settled).toBeLessThan(20)
    for (const res of await Promise.all(flood)) expect(res.status).toBe(403)
  }, 180_000)
})

/**
 * Health's request waits behind the forty that arrive with it, and each of those costs the loop a
 * little even with the judge elsewhere: about 9 ms from source, where React Router's development
 * handler ranks its routes again for every request. That is about 0.4 s for the forty on a quiet
 * machine, and past the 2 s hang guard once on CI's loaded two cores, so the source server gets
 * 5 s. Since lines nest at most eight deep (decision 0400) one of these costs the judge about
 * 0.12 s, and forty judged on the loop would interleave with health rather than hold it for
 * seconds: this test now guards against a hang, and that no route judges on the loop is
 * tests/architecture/judge-off-the-loop.test.ts's.
 */
const MANY_LINES_GUARD_MS: Record<ServerEntry, number> = { source: 5_000, compiled: HANG_GUARD_MS }

describe.each<ServerEntry>(['source', 'compiled'])('many wide command lines at once, %s server', (entry) => {
  let target: SpawnedServer
  let member: ApiClient

  beforeAll(async () => {
    if (entry === 'source') {
      // The file's own server: another from source would cost about ten seconds of CPU to start.
      target = server
      member = mallory
    } else {
      ;({ server: target, attacker: member } = await targetWithBox(`many-${entry}`, entry))
    }
  }, 180_000)
  afterAll(async () => {
    if (entry === 'compiled') await target?.stop()
  })

  it('forty 16 KiB lines sent together are each refused while health answers', async () => {
    const command = fill('sudo x; ', 'echo $(a $(a $(a $(a $(a $(a $(a $(a x)))))))); ')
    const attempts = Promise.all(
      Array.from({ length: 40 }, () =>
        member.post('/_agent-native/environments/box/commands?scope=personal', { command }),
      ),
    )
    expect(await healthWhile(target.baseUrl, attempts, MANY_LINES_GUARD_MS[entry])).toBeGreaterThan(0)
    for (const res of await attempts) {
      expect(res.status).toBe(403)
      expect(res.body.error.message).toContain('builtin:privilege')
    }
  }, 180_000)
})
