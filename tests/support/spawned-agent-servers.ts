/**
 * Compiled servers in child processes, for the files that need a server of its own process (a
 * second instance, a server the test must not share its event loop with): the fake model on a
 * real port, a temp folder the sandbox uid may enter, one database on the run's PostgreSQL server
 * (`inject('postgresUrl')`) that every instance joins, each with its own ENVIRONMENTS_DIR (the
 * folder named after it), and a person signed up on the first and signed in on the others.
 * Started one after the other: the first applies the migrations. Needs `npm run build`.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import { ApiClient } from './api-client.ts'
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.ts'
import { createEmptyDatabase } from './postgres-server.ts'
import { spawnServer, type SpawnedServer } from './spawn-server.ts'

export type SpawnedAgentServers = {
  fake: FakeAnthropic
  /** The temp folder; instance `name` keeps its environments in `<dir>/<name>`. */
  dir: string
  servers: SpawnedServer[]
  /** The person's session on each server, in the order of `instances`. */
  clients: ApiClient[]
  /** Stops what is still running, drops the database, removes the folder. */
  close(): Promise<void>
}

export async function startSpawnedAgentServers(options: {
  /** The deployment's model key. */
  key: string
  /** The temp folder's name prefix. */
  dirPrefix: string
  /** One name per server; its ENVIRONMENTS_DIR is `<dir>/<name>`. */
  instances: string[]
  /** Who signs up on the first server (and signs in on the others). */
  person: { name: string; email: string }
  /** More server env; a function is given the temp folder. */
  env?: Record<string, string> | ((dir: string) => Record<string, string>)
}): Promise<SpawnedAgentServers> {
  const closers: (() => unknown)[] = []
  const close = async () => {
    for (const end of closers.splice(0).reverse()) await end()
  }
  try {
    const dir = mkdtempSync(path.join(os.tmpdir(), options.dirPrefix))
    chmodSync(dir, 0o711) // the sandbox uid must be able to enter it
    closers.push(() => rmSync(dir, { recursive: true, force: true }))
    const fake = await startFakeAnthropic({ apiKey: options.key, fallback: { text: 'Done.' } })
    closers.push(() => fake.close())
    const database = await createEmptyDatabase(inject('postgresUrl'))
    closers.push(() => database.drop())
    const env = {
      DATABASE_URL: database.url,
      SCHEDULER_ENABLED: 'false',
      ANTHROPIC_API_KEY: options.key,
      ANTHROPIC_BASE_URL: fake.baseURL,
      ...(typeof options.env === 'function' ? options.env(dir) : options.env),
    }
    const servers: SpawnedServer[] = []
    for (const name of options.instances) {
      const server = await spawnServer(
        { ...env, ENVIRONMENTS_DIR: path.join(dir, name) },
        undefined,
        'compiled',
      )
      closers.push(() => server.stop()) // a no-op for one the test stopped itself
      servers.push(server)
    }
    const clients = servers.map((s) => new ApiClient(s.baseUrl))
    await clients[0]!.signUp(options.person.name, options.person.email)
    for (const client of clients.slice(1)) await client.signIn(options.person.email)
    return { fake, dir, servers, clients, close }
  } catch (error) {
    await close()
    throw error
  }
}
