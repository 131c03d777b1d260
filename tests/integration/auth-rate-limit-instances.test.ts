import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { createEmptyDatabase } from '#tests/support/postgres-server.ts'
import { spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts'

// Security review, finding 12: the sign-in limit (5 per 10 s per client IP) was kept in each
// instance's memory, so two instances behind one load balancer allowed twice as many guesses.
// better-auth now counts in the database: two instances on one PostgreSQL share the window.
let a: SpawnedServer
let b: SpawnedServer
let dropDatabase = async () => {}

beforeAll(async () => {
  // A database of its own on the run's one PostgreSQL server (tests/support/global-setup.ts).
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

async function failedSignIn(server: SpawnedServer, ip: string) {
  const res = await fetch(`${server.baseUrl}/_agent-native/auth/sign-in/email`, {
    method: 'POST',
    headers: { origin: server.baseUrl, 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' }),
  })
  await res.text()
  return res.status
}

it('holds the sign-in limit across two instances on one database', async () => {
  const statuses = []
  // Alternate instances, as a load balancer would.
  for (let i = 0; i < 8; i++) statuses.push(await failedSignIn(i % 2 ? b : a, '203.0.113.50'))
  expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
  expect(statuses.slice(5)).toEqual([429, 429, 429])
  // Another client is not affected, on either instance.
  expect(await failedSignIn(b, '198.51.100.60')).toBe(401)
}, 60_000)
