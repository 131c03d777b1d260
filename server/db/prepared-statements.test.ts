import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { createEmptyDatabase } from '#tests/support/postgres-server.ts'
import { openDatabase, type Db, type DbHandle } from './client.ts'
import { preparingClient } from './prepared-statements.ts'

let empty: { url: string; drop(): Promise<void> }
beforeAll(async () => {
  empty = await createEmptyDatabase(inject('postgresUrl'))
})
afterAll(() => empty.drop())

/** The statements prepared on the connection the query runs on (pools of one). */
async function preparedOn(db: Db): Promise<string[]> {
  // Db is typed for either driver, so execute's rows are unknown here: postgres.js gives an array.
  const rows = (await db.execute(sql`select statement from pg_prepared_statements`)) as unknown
  return (rows as { statement: string }[]).map((row) => row.statement)
}

const plusOne = (db: Db, n: number) => db.execute(sql`select ${n}::int + 1 as answer`)

describe('prepared statements', () => {
  let handle: DbHandle
  afterAll(() => handle?.close())

  it("prepares a query with parameters once on its connection and reuses it (the app's default)", async () => {
    handle = await openDatabase({ url: empty.url, poolSize: 1 })
    expect(await plusOne(handle.db, 1)).toEqual([{ answer: 2 }])
    expect(await plusOne(handle.db, 41)).toEqual([{ answer: 42 }])
    const prepared = await preparedOn(handle.db)
    expect(prepared.filter((s) => s.includes('::int + 1 as answer'))).toHaveLength(1)
  })

  it("prepares the statements of a transaction on the transaction's connection", async () => {
    const answer = await handle.db.transaction(async (tx) => {
      const rows = (await tx.execute(sql`select ${21}::int * 2 as twice`)) as unknown
      return (rows as { twice: number }[])[0]?.twice
    })
    expect(answer).toBe(42)
    expect((await preparedOn(handle.db)).filter((s) => s.includes('* 2 as twice'))).toHaveLength(1)
  })

  it('prepares nothing when turned off (a transaction-mode pooler)', async () => {
    const off = await openDatabase({ url: empty.url, poolSize: 1, prepare: false })
    try {
      expect(await plusOne(off.db, 1)).toEqual([{ answer: 2 }])
      expect(await preparedOn(off.db)).toEqual([])
    } finally {
      await off.close()
    }
  })

  it('stops preparing new texts past the cap, so a connection holds a bounded number', async () => {
    const client = postgres(empty.url, { max: 1, onnotice: () => {} })
    const db = drizzle(preparingClient(client, 2)) as unknown as Db
    try {
      for (const column of ['a', 'b', 'c']) {
        await db.execute(sql`select ${1}::int as ${sql.identifier(column)}`)
      }
      // The first two texts are prepared; the third runs unprepared, and again when repeated.
      await db.execute(sql`select ${2}::int as ${sql.identifier('c')}`)
      const prepared = await preparedOn(db)
      expect(prepared.filter((s) => /as "[abc]"/.test(s)).sort()).toEqual([
        'select $1::int as "a"',
        'select $1::int as "b"',
      ])
    } finally {
      await client.end()
    }
  })
})
