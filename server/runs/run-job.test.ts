import { describe, expect, it } from 'vitest'
import { PgDialect } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { RUN_KEYS } from '../jobs/fields.ts'
import { selectRunJob, toRunJob, type RunJobRow } from './run-job.ts'

describe('the run view of a job', () => {
  it('selects every field the registry marks for runs, under its field name', () => {
    const query = new PgDialect().sqlToQuery(selectRunJob(sql`1 as one`, sql`where id = 'x'`)).sql
    for (const key of RUN_KEYS) expect(query).toContain(`as "${key}"`)
  })

  it('carries every run field into the executor view', () => {
    const fields = Object.fromEntries(RUN_KEYS.map((key) => [key, `value of ${key}`]))
    const row = {
      id: 'job_1',
      org_id: 'org_1',
      name: 'digest',
      created_by: 'user_1',
      ...fields,
    } as unknown as RunJobRow
    expect(toRunJob(row)).toEqual({
      id: 'job_1',
      orgId: 'org_1',
      name: 'digest',
      createdBy: 'user_1',
      ...fields,
    })
  })
})
