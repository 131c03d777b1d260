import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { JOB_FIELDS, TOOL_KEYS } from '../../jobs/fields.ts'
import { JobCreateInput, JobUpdateInput } from '../../jobs/schema.ts'
import { ManageJobsInput } from './manage-jobs-input.ts'

const SELECTORS = ['action', 'name', 'id', 'scope', 'query', 'limit', 'cursor']
// Spellings of schedule the jobs service folds into it (jobs/schedule-keys.ts).
const SCHEDULE_SPELLINGS = ['at', 'every']

describe('the manage-jobs input and the API agree', () => {
  it('offers exactly the registry fields marked for the tool, with the API docs', () => {
    const fields = Object.keys(ManageJobsInput.shape).filter(
      (key) => !SELECTORS.includes(key) && !SCHEDULE_SPELLINGS.includes(key),
    )
    expect(fields.sort()).toEqual([...TOOL_KEYS].sort())
    for (const key of TOOL_KEYS) {
      const description = ManageJobsInput.shape[key].description ?? ''
      expect(description.startsWith(JOB_FIELDS[key].schema.description ?? '?'), key).toBe(true)
      expect(Object.keys(JobUpdateInput.shape), key).toContain(key)
    }
  })

  it('offers the same choices as the API for enum fields', () => {
    for (const key of TOOL_KEYS) {
      const api = JOB_FIELDS[key].schema
      if (!(api instanceof z.ZodEnum)) continue
      const tool = ManageJobsInput.shape[key].unwrap() as unknown as z.ZodEnum
      expect(tool.options, key).toEqual(api.options)
    }
  })

  it('accepts as tool input every create input the API accepts', () => {
    const api = JobCreateInput.parse({ name: 'x', schedule: '@daily', instructions: 'Hi', timezone: 'UTC' })
    const picked = Object.fromEntries(TOOL_KEYS.map((key) => [key, api[key]]))
    expect(ManageJobsInput.safeParse({ action: 'create', name: 'x', ...picked }).success).toBe(true)
  })
})
