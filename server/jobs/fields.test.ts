import { describe, expect, it } from 'vitest'
import { creationChanges, diffDefinition } from './audit.ts'
import { SAMPLE_DEFINITION } from '#tests/support/job-definition.ts'
import { JOB_FIELD_KEYS, jobFormSpec, specOf, type JobDefinition } from './fields.ts'
import { parseJobFile, renderJobFile } from './job-file.ts'
import { JobCreateInput, JobUpdateInput } from './schema.ts'

const identity = { createdByEmail: 'ana@example.com', orgId: 'org_1' }

describe('the job-field registry', () => {
  it('has a sample value for every field that differs from its default', () => {
    expect(Object.keys(SAMPLE_DEFINITION)).toEqual(JOB_FIELD_KEYS)
    for (const key of JOB_FIELD_KEYS) {
      const spec = specOf(key)
      expect(SAMPLE_DEFINITION[key], key).not.toEqual(spec.default)
    }
  })

  it('round-trips every field API → file → API', () => {
    const created = JobCreateInput.parse({ name: 'digest', ...SAMPLE_DEFINITION })
    const { name: _name, scope: _scope, ...definition } = created
    expect(definition).toEqual(SAMPLE_DEFINITION)
    const text = renderJobFile({ ...SAMPLE_DEFINITION, createdByEmail: identity.createdByEmail })
    const parsed = parseJobFile(text, { name: 'digest', truth: identity })
    expect(parsed).toEqual(SAMPLE_DEFINITION)
    expect(JobUpdateInput.parse(parsed)).toEqual(SAMPLE_DEFINITION)
  })

  it('applies every declared default on create and none on update', () => {
    const created = JobCreateInput.parse({ name: 'x', schedule: '@daily', instructions: 'Hi' })
    for (const key of JOB_FIELD_KEYS) {
      const spec = specOf(key)
      if ('default' in spec) expect(created[key], key).toEqual(spec.default)
    }
    expect(JobUpdateInput.parse({ retries: 1 })).toEqual({ retries: 1 })
  })

  it('lists every changed field in the audit diff, under a label the trail knows', () => {
    const before = JobCreateInput.parse({ name: 'x', schedule: '@daily', instructions: 'Hi' })
    const changes = diffDefinition(
      { ...before, timezone: 'UTC', extra: {} } as JobDefinition,
      SAMPLE_DEFINITION,
    )
    expect(Object.keys(changes).sort()).toEqual([...JOB_FIELD_KEYS].sort())
    const { labels } = jobFormSpec()
    for (const key of Object.keys(creationChanges({ ...SAMPLE_DEFINITION, name: 'x', scope: 'shared' })))
      expect(labels[key], key).toBeTruthy()
  })
})
