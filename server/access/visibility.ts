/**
 * The SQL twin of {@link canViewJob}: a drizzle condition that keeps only the jobs a caller may see,
 * so lists filter in Postgres (indexed on org_id) instead of loading rows and filtering in JS.
 * tests/integration/access-visibility.test.ts checks that both agree on the truth table.
 */
import { and, eq, or, type SQL } from 'drizzle-orm'
import { jobs } from '../db/schema/index.ts'
import type { AccessCaller } from './rules.ts'

/** `where` condition: jobs of the caller's organisation that are shared or that the caller created. */
export function jobsVisibleTo(caller: Pick<AccessCaller, 'userId' | 'orgId'>): SQL {
  return and(
    eq(jobs.orgId, caller.orgId),
    or(eq(jobs.scope, 'shared'), eq(jobs.createdBy, caller.userId)),
  ) as SQL
}
