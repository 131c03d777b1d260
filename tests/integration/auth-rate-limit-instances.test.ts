import { expect, it } from 'vitest'
import type { SpawnedServer } from '#tests/support/spawn-server.ts'
import { twoInstancesOnOneDatabase } from '#tests/support/two-instances.ts'

// Security review, finding 12: the sign-in limit (5 per 10 s per client IP) was kept in each
// instance's memory, so two instances behind one load balancer allowed twice as many guesses.
// better-auth now counts in the database: two instances on one PostgreSQL share the window.
const servers = twoInstancesOnOneDatabase()

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
  for (let i = 0; i < 8; i++)
    statuses.push(await failedSignIn(i % 2 ? servers.b() : servers.a(), '203.0.113.50'))
  expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
  expect(statuses.slice(5)).toEqual([429, 429, 429])
  // Another client is not affected, on either instance.
  expect(await failedSignIn(servers.b(), '198.51.100.60')).toBe(401)
}, 60_000)
