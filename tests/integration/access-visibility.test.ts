/**
 * The SQL visibility filter and the pure rules agree, on real Postgres, for every cell of the
 * truth table and for jobs beyond it (other creators, other organisations).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canViewJob } from '#server/access/rules.ts'
import {
  CALLER_KINDS,
  TABLE_IDS,
  TRUTH_TABLE,
  tableCaller,
  tableJob,
  type CallerKind,
} from '#server/access/truth-table.ts'
import { jobsVisibleTo } from '#server/access/visibility.ts'
import type { Caller } from '#server/auth/caller.ts'
import { getDb } from '#server/db/client.ts'
import { jobs, member, organization, user } from '#server/db/schema/index.ts'
import { listJobBriefs } from '#server/jobs/list.ts'
import { createTestDatabase, type TestDatabase } from '#tests/support/database.ts'
import { queryRows } from '#server/db/sql.ts'

let database: TestDatabase

// The table's two jobs, plus: an admin's personal job, org B's shared and personal jobs.
const allJobs = [
  tableJob('personal'),
  tableJob('shared'),
  { id: 'job_admin_personal', orgId: TABLE_IDS.orgA, scope: 'personal', createdBy: TABLE_IDS.users.admin },
  { id: 'job_b_shared', orgId: TABLE_IDS.orgB, scope: 'shared', createdBy: TABLE_IDS.users.outsider },
  { id: 'job_b_personal', orgId: TABLE_IDS.orgB, scope: 'personal', createdBy: TABLE_IDS.users.outsider },
] as const

const fullCaller = (kind: CallerKind): Caller => ({
  ...tableCaller(kind),
  email: `${kind}@example.com`,
  name: kind,
  timezone: null,
  orgName: 'org',
})

beforeAll(async () => {
  database = await createTestDatabase()
  const db = getDb()
  await db.insert(organization).values([
    { id: TABLE_IDS.orgA, name: 'A', slug: 'a' },
    { id: TABLE_IDS.orgB, name: 'B', slug: 'b' },
  ])
  await db
    .insert(user)
    .values(
      CALLER_KINDS.map((kind) => ({ id: TABLE_IDS.users[kind], name: kind, email: `${kind}@example.com` })),
    )
  await db.insert(member).values(
    CALLER_KINDS.map((kind) => ({
      id: `m_${kind}`,
      organizationId: tableCaller(kind).orgId,
      userId: TABLE_IDS.users[kind],
      role: tableCaller(kind).role,
    })),
  )
  await db
    .insert(jobs)
    .values(
      allJobs.map((job, i) => ({ ...job, name: `job-${i}`, schedule: '0 7 * * *', instructions: 'Go' })),
    )
})
afterAll(() => database?.drop())

async function visibleIds(kind: CallerKind): Promise<string[]> {
  const rows = await getDb()
    .select({ id: jobs.id })
    .from(jobs)
    .where(jobsVisibleTo(tableCaller(kind)))
  return rows.map((r) => r.id).sort()
}

describe('jobsVisibleTo agrees with canViewJob', () => {
  it.each(TRUTH_TABLE)('$caller on a $job job: visible $view', async (row) => {
    expect((await visibleIds(row.caller)).includes(tableJob(row.job).id)).toBe(row.view)
  })

  it.each(CALLER_KINDS)(
    '%s sees exactly the jobs the rules allow, in SQL and in listJobBriefs',
    async (kind) => {
      const expected = allJobs
        .filter((job) => canViewJob(tableCaller(kind), job))
        .map((j) => j.id)
        .sort()
      expect(await visibleIds(kind)).toEqual(expected)
      const listed = await listJobBriefs(fullCaller(kind), {})
      expect(listed.map((j) => j.id).sort()).toEqual(expected)
    },
  )
})

describe('listing cost', () => {
  it("filters in Postgres through the org index, not by loading other organisations' jobs", async () => {
    // 3000 jobs in org B; org A's list should not scan them.
    await queryRows(
      database.handle.db,
      sql`
      insert into jobs (id, org_id, scope, name, created_by, schedule, instructions)
      select 'bulk_' || g, ${TABLE_IDS.orgB}, 'shared', 'bulk-' || g, ${TABLE_IDS.users.outsider}, '0 7 * * *', 'x'
      from generate_series(1, 3000) g`,
    )
    await queryRows(database.handle.db, sql`analyze jobs`)
    const query = getDb()
      .select({ id: jobs.id })
      .from(jobs)
      .where(jobsVisibleTo(tableCaller('member')))
      .toSQL()
    const plan = await queryRows<{ 'QUERY PLAN': string }>(
      database.handle.db,
      sql`explain ${sql.raw(inline(query.sql, query.params))}`,
    )
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index|Bitmap/)
    expect((await listJobBriefs(fullCaller('member'), {})).map((j) => j.id)).toEqual([tableJob('shared').id])
  })
})

/** Inlines $n parameters as SQL literals, for EXPLAIN (test data only: plain strings). */
function inline(text: string, params: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n) => `'${String(params[Number(n) - 1]).replace(/'/g, "''")}'`)
}
