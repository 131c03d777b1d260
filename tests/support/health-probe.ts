/**
 * The probe of the event-loop tests: while a tenant's request is being handled by a server in its
 * own process, ask that server's /_agent-native/health again and again. Nothing is timed; the
 * guard only turns a server that stopped answering into a failure instead of a hang.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, inject } from 'vitest'
import { ApiClient } from './api-client.ts'
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.ts'
import { sharedPostgres, spawnServer, type ServerEntry, type SpawnedServer } from './spawn-server.ts'

/** Stops a target; one an unfixed attack froze never handles SIGTERM, so it is killed after a while. */
export async function stopTarget(server: SpawnedServer | undefined): Promise<void> {
  if (!server) return
  const stopping = server.stop()
  const guard = setTimeout(() => process.kill(server.pid, 'SIGKILL'), 10_000)
  await stopping
  clearTimeout(guard)
}

/** How long one health answer may take while an attack runs: a stalled loop takes seconds. */
export const HANG_GUARD_MS = 2_000

/**
 * The target of an event-loop test: a server in its own process (no scheduler), so a held loop
 * cannot hold the test's, and the attacker signed up on it.
 */
export async function spawnTarget(
  person: { name: string; email: string },
  entry?: ServerEntry,
): Promise<{ server: SpawnedServer; attacker: ApiClient }> {
  const server = await spawnServer(
    { SCHEDULER_ENABLED: 'false' },
    sharedPostgres(inject('postgresUrl')),
    entry,
  )
  const attacker = new ApiClient(server.baseUrl)
  await attacker.signUp(person.name, person.email)
  return { server, attacker }
}

/**
 * Asks for health until `work` settles; every answer must come within `guardMs`, or, with
 * `lateInARow` above 1, no that many asks in a row may each go unanswered that long (one late answer
 * then passes: a server doing legitimate work on a loaded machine gets a fraction of a core, while a
 * stalled loop misses every ask until it ends). Returns how many answers came.
 */
export async function healthWhile(
  baseUrl: string,
  work: Promise<unknown>,
  guardMs: number,
  { lateInARow = 1 }: { lateInARow?: number } = {},
): Promise<number> {
  let settled = false
  void work.finally(() => (settled = true)).catch(() => {})
  let answers = 0
  let late = 0
  while (!settled || answers === 0) {
    const res = await fetch(`${baseUrl}/_agent-native/health`, {
      signal: AbortSignal.timeout(guardMs),
    }).catch((err: unknown) => {
      if (!(err instanceof Error && err.name === 'TimeoutError') || ++late >= lateInARow) throw err
      return null
    })
    if (!res) continue
    late = 0
    expect(res.status).toBe(200)
    await res.arrayBuffer()
    answers++
  }
  return answers
}

/**
 * The target of a harness event-loop test: a fake model with key `key`, a folder for environments
 * and a server (source, with its scheduler: Run now's runs are claimed by it) in its own process,
 * the attacker signed up on it. `stop` tears all three down.
 */
export async function spawnHarnessTarget(
  key: string,
  person: { name: string; email: string },
): Promise<{ fake: FakeAnthropic; server: SpawnedServer; attacker: ApiClient; stop: () => Promise<void> }> {
  const fake = await startFakeAnthropic({ apiKey: key, fallback: { text: 'Done.' } })
  const envsDir = mkdtempSync(path.join(tmpdir(), 'clockwork-harness-target-'))
  chmodSync(envsDir, 0o711) // the sandbox uid enters it
  const server = await spawnServer(
    {
      SCHEDULER_ENABLED: 'true',
      ANTHROPIC_API_KEY: key,
      ANTHROPIC_BASE_URL: fake.baseURL,
      ENVIRONMENTS_DIR: envsDir,
    },
    sharedPostgres(inject('postgresUrl')),
    'source',
  )
  const attacker = new ApiClient(server.baseUrl)
  await attacker.signUp(person.name, person.email)
  const stop = async () => {
    await stopTarget(server)
    await fake.close()
    rmSync(envsDir, { recursive: true, force: true })
  }
  return { fake, server, attacker, stop }
}
