/**
 * The sweep of deleted organisations' folders listens on Postgres; stopping it after the database
 * was closed (a server's shutdown where the database went first, foundation.test's health check)
 * must not fail: there is nothing left to unlisten.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openDatabase } from '#server/db/client.ts'
import { removeDeletedOrganizations } from '#server/environments/operations/deleted-organizations.ts'
import { createTestDatabase, type TestDatabase } from '#tests/support/database.ts'

let test: TestDatabase
beforeAll(async () => {
  test = await createTestDatabase()
})
afterAll(() => test?.drop())

it('stops without an error when the database has already been closed', async () => {
  const handle = await openDatabase({ url: test.url, poolSize: 2 })
  const stop = await removeDeletedOrganizations(handle)
  await handle.close()
  await expect(stop()).resolves.toBeUndefined()
})
