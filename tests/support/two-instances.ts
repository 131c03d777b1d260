/** Two instances of the production server behind one load balancer, for vitest files. */
import { afterAll, beforeAll, inject } from 'vitest'
import { createEmptyDatabase } from './postgres-server.ts'
import { spawnServer, type SpawnedServer } from './spawn-server.ts'

/**
 * Two production servers on one new database with the auth rate limits on and X-Forwarded-For
 * trusted from loopback (a test names the client address), as two instances behind a load
 * balancer: started before the calling file's (or describe's) tests, stopped and dropped after.
 */
export function twoInstancesOnOneDatabase(): { a: () => SpawnedServer; b: () => SpawnedServer } {
  let a: SpawnedServer | undefined
  let b: SpawnedServer | undefined
  let dropDatabase = async () => {}
  beforeAll(async () => {
    const database = await createEmptyDatabase(inject('postgresUrl'))
    dropDatabase = database.drop
    const env = {
      DATABASE_URL: database.url,
      AUTH_RATE_LIMIT: 'true',
      TRUST_PROXY: 'loopback',
      SCHEDULER_ENABLED: 'false',
    }
    // One after the other: the first applies the migrations.
    a = await spawnServer(env)
    b = await spawnServer(env)
  }, 120_000)
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await dropDatabase()
  })
  return { a: () => a!, b: () => b! }
}
