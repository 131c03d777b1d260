/**
 * The places of job mail (decisions 0531 and 0536) on a real Postgres: one address's places,
 * whatever its spelling, its own account's apart from everyone else's, a place given back by a mail
 * that could not be sent, and the hourly deletion of places older than a day, which keeps the table
 * to about a day of mail. The pace itself, over HTTP and real runs, is job-mail-flood-attack.test.ts.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '#server/db/client.ts'
import { queryRows } from '#server/db/sql.ts'
import {
  deleteOldJobMails,
  giveBackJobMailPlace,
  JOB_MAIL_BURST,
  takeJobMailPlace,
} from '#server/integrations/job-mail-pace.ts'
import { createTestDatabase, type TestDatabase } from '#tests/support/database.ts'

let database: TestDatabase
let db: Db

beforeAll(async () => {
  database = await createTestDatabase()
  db = database.handle.db
})
afterAll(() => database?.drop())

const placesOf = async (address: string) =>
  (
    await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from job_mails where address = ${address}`,
    )
  )[0]!.n

describe('places of job mail', () => {
  it('are one address’s whatever its spelling, and a place given back is free again', async () => {
    const taken = []
    for (let i = 0; i < JOB_MAIL_BURST; i++)
      taken.push(await takeJobMailPlace(i % 2 ? 'Ana@Example.com' : 'ana@example.com', false, db))
    expect(taken.every((p) => 'id' in p)).toBe(true)
    const held = await takeJobMailPlace('ANA@EXAMPLE.COM', false, db)
    expect(held).toEqual({ pacedUntil: expect.any(Date) })
    expect(await placesOf('ana@example.com')).toBe(JOB_MAIL_BURST)

    // The last mail could not be sent: its place is the next one's.
    await giveBackJobMailPlace(taken.at(-1) as { id: number }, db)
    expect(await takeJobMailPlace('ana@example.com', false, db)).toEqual({ id: expect.any(Number) })
    expect(await placesOf('ana@example.com')).toBe(JOB_MAIL_BURST)
  })

  it('are counted apart for the address’s own account and for everyone else, each to the same pace', async () => {
    for (let i = 0; i < JOB_MAIL_BURST; i++)
      expect(await takeJobMailPlace('bo@example.com', false, db)).toEqual({ id: expect.any(Number) })
    expect(await takeJobMailPlace('bo@example.com', false, db)).toEqual({ pacedUntil: expect.any(Date) })
    // Others filled theirs; the account's own mail still has all of its own, and no more.
    for (let i = 0; i < JOB_MAIL_BURST; i++)
      expect(await takeJobMailPlace('Bo@Example.com', true, db)).toEqual({ id: expect.any(Number) })
    expect(await takeJobMailPlace('bo@example.com', true, db)).toEqual({ pacedUntil: expect.any(Date) })
    expect(await placesOf('bo@example.com')).toBe(2 * JOB_MAIL_BURST)
  })

  it('older than a day are deleted, in batches past a thousand, and count for nothing before', async () => {
    await db.execute(
      sql`insert into job_mails (address, sent_at)
          select 'old@example.com', now() - interval '25 hours' from generate_series(1, 1200)`,
    )
    await db.execute(
      sql`insert into job_mails (address, sent_at) values ('old@example.com', now() - interval '23 hours')`,
    )
    // 1,200 a day old do not hold the address back; the one of 23 hours ago counts.
    expect(await takeJobMailPlace('old@example.com', false, db)).toEqual({ id: expect.any(Number) })
    expect(await deleteOldJobMails(sql`now()`, db)).toBe(1_200)
    expect(await placesOf('old@example.com')).toBe(2)
    expect(await deleteOldJobMails(sql`now()`, db)).toBe(0)
  })
})
