/**
 * The memory of clients over the guess limit (server/tokens/guess-limit.ts) is bounded. It was a Map
 * that kept every client found over the limit until another was added after its window ended, so
 * clients limited together (enough addresses, each refused 21 times within a minute) all stayed in
 * it at once. The limit itself, over HTTP and across instances, is mcp-token-guessing.test.ts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  countRefusedToken,
  limitedClients,
  MAX_LIMITED_CLIENTS,
  MAX_REFUSED_TOKENS,
  waitForTokens,
} from '#server/tokens/guess-limit.ts'
import { createTestDatabase, type TestDatabase } from '#tests/support/database.ts'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database?.drop())

it('holds at most its cap of limited clients, and a client limited when it is full is held', async () => {
  // Clients limited a moment ago, none of whose windows has ended (only the memory, no rows).
  for (let i = 0; i < MAX_LIMITED_CLIENTS; i++) limitedClients.remember(`refused-token:filler-${i}`, 60_000)
  const address = '203.0.113.90'
  const waits = []
  for (let i = 0; i <= MAX_REFUSED_TOKENS; i++)
    waits.push(await countRefusedToken(address, database.handle.db))
  expect(waits.slice(0, MAX_REFUSED_TOKENS)).toEqual(Array(MAX_REFUSED_TOKENS).fill(null))
  expect(waits.at(-1)).toBeGreaterThanOrEqual(1)
  // Unbounded: 10,001.
  expect(limitedClients.size).toBe(MAX_LIMITED_CLIENTS)
  expect(waitForTokens(address)).toBeGreaterThanOrEqual(1)
})
