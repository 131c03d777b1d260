/**
 * A picture of the tables a job or file write touches, to assert that a refused request changed
 * nothing (invariant 7): take one before, one after, and compare them with toEqual.
 */
import { sql } from 'drizzle-orm'
import { getDbHandle, type DbHandle } from '#server/db/client.ts'
import { queryRows } from '#server/db/sql.ts'

export type TableSnapshot = Record<'jobs' | 'resources' | 'job_audit' | 'job_runs', unknown[]>

/** Every row of jobs, resources, job_audit and job_runs, in a stable order. */
export async function snapshotTables(handle: DbHandle = getDbHandle()): Promise<TableSnapshot> {
  const [jobs, resources, audit, runs] = await Promise.all([
    queryRows(handle.db, sql`select * from jobs order by id`),
    queryRows(handle.db, sql`select * from resources order by id`),
    queryRows(handle.db, sql`select * from job_audit order by id`),
    queryRows(handle.db, sql`select * from job_runs order by id`),
  ])
  return { jobs, resources, job_audit: audit, job_runs: runs }
}
