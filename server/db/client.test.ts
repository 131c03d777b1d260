/**
 * A listener's unlisten after its database was closed: a server's shutdown may close the database
 * before the scheduler or the folder sweep stops listening, and there is nothing left to undo.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { createEmptyDatabase } from '#tests/support/postgres-server.ts'
import { openDatabase, type DbHandle } from './client.ts'

let empty: { url: string; drop(): Promise<void> }
beforeAll(async () => {
  empty = await createEmptyDatabase(inject('postgresUrl'))
})
afterAll(() => empty.drop())

/**
 * Each kind, how to open it and how many times to close it under a listener: postgres.js rejected
 * an unlisten after its end() only when its listening socket had not closed yet (a race inside
 * end(), about half the tries here), PGlite every time.
 */
const kinds: [string, () => Promise<DbHandle>, number][] = [
  ['postgres', () => openDatabase({ url: empty.url, poolSize: 1 }), 20],
  ['PGlite', () => openDatabase({}), 1],
]

describe.each(kinds)('a %s listener', (_kind, open, tries) => {
  it('hears a notification, and none after its unlisten, on an open database', async () => {
    const handle = await open()
    try {
      const heard: string[] = []
      const unlisten = await handle.listen('client_test', (payload) => heard.push(payload))
      await handle.db.execute(sql`notify client_test, 'hello'`)
      await expect.poll(() => heard).toEqual(['hello'])
      await unlisten()
      // Notifications reach a session in the order they were sent: once the later one on another
      // channel is heard, the one after the unlisten would have been too.
      const after: string[] = []
      await handle.listen('client_test_after', (payload) => after.push(payload))
      await handle.db.execute(sql`notify client_test, 'again'`)
      await handle.db.execute(sql`notify client_test_after, 'done'`)
      await expect.poll(() => after).toEqual(['done'])
      expect(heard).toEqual(['hello'])
    } finally {
      await handle.close()
    }
  })

  it('unlistens without an error once its database is closed', async () => {
    for (let n = 0; n < tries; n++) {
      const handle = await open()
      const unlisten = await handle.listen('client_test', () => {})
      await handle.close()
      await expect(unlisten(), `try ${n + 1}`).resolves.toBeUndefined()
    }
  })
})
