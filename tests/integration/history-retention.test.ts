/**
 * History retention, as the scheduler runs it hourly: finished runs older than RUN_HISTORY_DAYS go
 * (queued and running ones stay, whatever their age), and every audit trail's rows older than
 * AUDIT_HISTORY_DAYS go (decision 0493), and so do chat turns older than RUN_HISTORY_DAYS (0504,
 * kept for ever before: a row per turn, one a request when the call fails for free). Before, the audit trails were kept for ever: every command
 * a member or an agent runs writes a row of up to 64 KiB (its command line) that nothing deleted,
 * not even deleting the environment. Real Postgres, the rows written as the code writes them.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '#server/db/client.ts'
import { NOTICES_KEPT, sendNotice } from '#server/accounts/notices.ts'
import {
  agentThreads,
  environmentAudit,
  jobAudit,
  jobRuns,
  member,
  memberAudit,
  notifications,
  skillAudit,
} from '#server/db/schema/index.ts'
import { countUnread } from '#server/integrations/views.ts'
import { queryRows } from '#server/db/sql.ts'
import { newId } from '#server/lib/ids.ts'
import {
  deleteOldAudit,
  deleteOldAuditVolumes,
  deleteOldChatTurns,
  deleteOldReadNotices,
  deleteOldRuns,
} from '#server/scheduler/retention.ts'
import { startScheduler } from '#server/scheduler/scheduler.ts'
import { ManualClock } from '#tests/support/clock.ts'
import { succeed } from '#tests/support/fake-executor.ts'
import { createTestDatabase, type TestDatabase } from '#tests/support/database.ts'
import { createOwner, insertJob, type Owner } from '#tests/support/scheduler-fixtures.ts'

const DAY = 24 * 60 * 60_000
const daysAgo = (days: number) => new Date(Date.now() - days * DAY)

let database: TestDatabase
let db: Db
let owner: Owner

beforeAll(async () => {
  database = await createTestDatabase()
  db = database.handle.db
  owner = await createOwner(db)
})
afterAll(() => database?.drop())

/** Each audit trail's rows, by what they say, oldest first. */
async function trails() {
  const read = (table: string, column: string) =>
    queryRows<{ v: string }>(
      db,
      sql`select ${sql.identifier(column)} as v from ${sql.identifier(table)} order by at`,
    )
  return {
    environment: (await read('environment_audit', 'subject')).map((r) => r.v),
    skill: (await read('skill_audit', 'skill_id')).map((r) => r.v),
    job: (await read('job_audit', 'note')).map((r) => r.v),
    member: (await read('member_audit', 'id')).map((r) => r.v),
  }
}

describe('audit trails', () => {
  it('keeps AUDIT_HISTORY_DAYS of each and deletes what is older, in batches past a thousand', async () => {
    const { orgId, userId } = owner
    // 1,200 old commands, past one batch, as a member's loop of cheap commands leaves them.
    await db.insert(environmentAudit).values(
      Array.from({ length: 1_200 }, (_, i) => ({
        environmentId: 'env_old',
        orgId,
        kind: 'command' as const,
        subject: `old ${i}`,
        decision: 'allowed' as const,
        at: daysAgo(400),
      })),
    )
    await db.insert(environmentAudit).values({
      environmentId: 'env_new',
      orgId,
      kind: 'command',
      subject: 'recent',
      decision: 'allowed',
      at: daysAgo(10),
    })
    await db.insert(skillAudit).values([
      { skillId: 'skill_old', orgId, action: 'proposed', via: 'agent', at: daysAgo(400) },
      { skillId: 'skill_new', orgId, action: 'approved', via: 'person', at: daysAgo(364) },
    ])
    await db.insert(jobAudit).values([
      { jobId: 'job_x', orgId, action: 'update', note: 'old change', at: daysAgo(366) },
      { jobId: 'job_x', orgId, action: 'update', note: 'recent change', at: daysAgo(1) },
    ])
    await db.insert(memberAudit).values([
      {
        id: 'mau_old',
        orgId,
        actorId: userId,
        subjectUserId: userId,
        action: 'reset_link_created',
        at: daysAgo(500),
      },
      {
        id: 'mau_new',
        orgId,
        actorId: userId,
        subjectUserId: userId,
        action: 'reset_link_created',
        at: daysAgo(2),
      },
    ])

    expect(await deleteOldAudit(365, sql`now()`, db)).toBe(1_200 + 3)
    expect(await trails()).toEqual({
      environment: ['recent'],
      skill: ['skill_new'],
      job: ['recent change'],
      member: ['mau_new'],
    })
    // Nothing more to delete: a second pass deletes nothing.
    expect(await deleteOldAudit(365, sql`now()`, db)).toBe(0)
  })
})

describe("people's daily audit volumes", () => {
  it('keep today and yesterday, the days the allowance reads, and delete older ones', async () => {
    await db.execute(sql`
      insert into audit_volume (actor_id, day, bytes) values
        ('vol_person', (now() at time zone 'utc')::date, 1),
        ('vol_person', (now() at time zone 'utc')::date - 1, 2),
        ('vol_person', (now() at time zone 'utc')::date - 2, 3),
        ('vol_person', (now() at time zone 'utc')::date - 40, 4)`)
    await deleteOldAuditVolumes(sql`now()`, db)
    const left = await queryRows<{ bytes: string }>(
      db,
      sql`select bytes from audit_volume where actor_id = 'vol_person' order by day desc`,
    )
    expect(left.map((r) => Number(r.bytes))).toEqual([1, 2])
  })
})

describe('run history', () => {
  it('deletes finished runs older than RUN_HISTORY_DAYS with their transcripts, and keeps queued and running ones', async () => {
    const jobId = await insertJob(db, owner, { schedule: '0 7 * * *' })
    let slot = 0
    const run = (status: (typeof jobRuns.$inferInsert)['status'], days: number) => ({
      id: newId('run'),
      jobId,
      orgId: owner.orgId,
      trigger: 'schedule' as const,
      // One job's runs each have a slot of their own (job_runs_slot_uq).
      scheduledFor: new Date(daysAgo(days).getTime() + ++slot),
      status,
      createdAt: daysAgo(days),
    })
    // Two transcripts: an old finished run's and a recent one's.
    const [oldThread, newThread] = [newId('thr'), newId('thr')]
    await db.insert(agentThreads).values(
      [oldThread, newThread].map((id) => ({
        id,
        orgId: owner.orgId,
        userId: owner.userId,
        kind: 'run' as const,
      })),
    )
    const rows = [
      { ...run('success', 100), threadId: oldThread },
      run('error', 95),
      run('queued', 100),
      run('running', 100),
      { ...run('success', 5), threadId: newThread },
    ]
    await db.insert(jobRuns).values(rows)

    expect(await deleteOldRuns(90, sql`now()`, db)).toBe(2)
    const left = await queryRows<{ status: string }>(
      db,
      sql`select status from job_runs where job_id = ${jobId} order by created_at, status`,
    )
    expect(left.map((r) => r.status)).toEqual(['queued', 'running', 'success'])
    const threads = await queryRows<{ id: string }>(
      db,
      sql`select id from agent_threads where id in (${oldThread}, ${newThread})`,
    )
    expect(threads.map((t) => t.id)).toEqual([newThread])
  })
})

/** Chat turns of `days` ago, one each, named `turn_<tag>_<days>`. */
async function insertChatTurns(tag: string, days: number[]) {
  for (const d of days) {
    await db.execute(sql`
      insert into chat_turns (id, org_id, user_id, key_source, started_at)
      values (${`turn_${tag}_${d}`}, ${owner.orgId}, ${owner.userId}, 'personal', ${daysAgo(d).toISOString()})`)
  }
}
/** The ids in `table` that start with `prefix`, oldest first by its `time` column. */
const idsLike = async (table: string, time: string, prefix: string) =>
  (
    await queryRows<{ id: string }>(
      db,
      sql`select id from ${sql.identifier(table)} where id like ${`${prefix}%`}
          order by ${sql.identifier(time)}`,
    )
  ).map((r) => r.id)
const chatTurnIds = (tag: string) => idsLike('chat_turns', 'started_at', `turn_${tag}_`)

describe('chat turns', () => {
  it('keeps RUN_HISTORY_DAYS of them and deletes what is older', async () => {
    await insertChatTurns('kept', [120, 91, 89, 1])
    expect(await deleteOldChatTurns(90, sql`now()`, db)).toBe(2)
    expect(await chatTurnIds('kept')).toEqual(['turn_kept_89', 'turn_kept_1'])
  })
})

/** Notices to `userId` in `orgId` of `days` ago, one each, named `ntf_<tag>_<days>`, read or not. */
async function insertNoticesAgo(tag: string, days: number[], read: boolean, to: Owner = owner) {
  await db.insert(notifications).values(
    days.map((d) => ({
      id: `ntf_${tag}_${d}`,
      userId: to.userId,
      orgId: to.orgId,
      jobId: null,
      kind: 'failing',
      title: `${tag} ${d}`,
      body: 'A job failed.',
      readAt: read ? daysAgo(d) : null,
      createdAt: daysAgo(d),
    })),
  )
}
const noticeIds = (tag: string) => idsLike('notifications', 'created_at', `ntf_${tag}_`)

describe('notices', () => {
  it('keeps read ones RUN_HISTORY_DAYS and unread ones until they are read', async () => {
    await insertNoticesAgo('read', [120, 91, 89, 1], true)
    await insertNoticesAgo('unread', [200], false)
    expect(await deleteOldReadNotices(90, sql`now()`, db)).toBe(2)
    expect(await noticeIds('read')).toEqual(['ntf_read_89', 'ntf_read_1'])
    expect(await noticeIds('unread')).toEqual(['ntf_unread_200'])
  })

  it("keep a person's newest NOTICES_KEPT in each organisation, so the bell counts a bounded list", async () => {
    // As an organisation that told them of something again and again leaves them, unread.
    const person = await createOwner(db, 'Nia Noticed')
    const other = await createOwner(db, 'Oren Other')
    await db
      .insert(member)
      .values({ id: newId('mem'), organizationId: other.orgId, userId: person.userId, role: 'member' })
    const flood = Array.from({ length: NOTICES_KEPT + 50 }, (_, i) => 30 + i / 1000)
    await insertNoticesAgo('flood', flood, false, person)
    await insertNoticesAgo('elsewhere', [40, 39], false, { ...person, orgId: other.orgId })

    await sendNotice(
      { orgId: person.orgId, jobId: null, kind: 'failing', title: 'the latest', body: 'A job failed.' },
      [{ id: person.userId, email: `${person.userId}@example.com` }],
      db,
    )
    const kept = await queryRows<{ title: string }>(
      db,
      sql`select title from notifications where user_id = ${person.userId} and org_id = ${person.orgId}
          order by created_at desc`,
    )
    expect(kept).toHaveLength(NOTICES_KEPT)
    expect(kept[0]!.title).toBe('the latest')
    // The oldest went: the newest before the latest are all there.
    expect(kept.at(-1)!.title).toBe(`flood ${flood[NOTICES_KEPT - 2]}`)
    expect(await countUnread(person.caller, db)).toBe(NOTICES_KEPT)
    // What another organisation told them is theirs to keep.
    expect(await noticeIds('elsewhere')).toEqual(['ntf_elsewhere_40', 'ntf_elsewhere_39'])
  })
})

describe('the scheduler', () => {
  it('prunes old audit rows, audit volumes, chat turns and read notices in its retention, a minute after it starts', async () => {
    await db.insert(environmentAudit).values([
      {
        environmentId: 'env_s',
        orgId: owner.orgId,
        kind: 'write',
        subject: 'scheduler old',
        decision: 'allowed',
        at: daysAgo(366),
      },
      {
        environmentId: 'env_s',
        orgId: owner.orgId,
        kind: 'write',
        subject: 'scheduler new',
        decision: 'allowed',
        at: daysAgo(3),
      },
    ])
    await db.execute(sql`
      insert into audit_volume (actor_id, day, bytes)
      values ('vol_scheduler', (now() at time zone 'utc')::date - 5, 1)`)
    const volumes = async () =>
      (await queryRows(db, sql`select 1 from audit_volume where actor_id = 'vol_scheduler'`)).length
    await insertChatTurns('scheduler', [200, 2])
    await insertNoticesAgo('scheduler', [200, 2], true)
    const clock = new ManualClock(new Date())
    const scheduler = await startScheduler({
      handle: database.handle,
      instanceId: 'retention-test',
      executor: succeed,
      clock,
      graceMs: 0,
    })
    try {
      const subjects = async () => (await trails()).environment.filter((s) => s.startsWith('scheduler'))
      expect(await subjects()).toEqual(['scheduler old', 'scheduler new'])
      await clock.advance(60_000)
      await expect.poll(subjects).toEqual(['scheduler new'])
      await expect.poll(volumes).toBe(0)
      await expect.poll(() => chatTurnIds('scheduler')).toEqual(['turn_scheduler_2'])
      await expect.poll(() => noticeIds('scheduler')).toEqual(['ntf_scheduler_2'])
    } finally {
      await scheduler.stop()
    }
  })
})
