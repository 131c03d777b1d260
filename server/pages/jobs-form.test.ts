import { describe, expect, it } from 'vitest'
import { SAMPLE_DEFINITION } from '#tests/support/job-definition.ts'
import { jobFormSpec } from '../jobs/fields.ts'
import { JobCreateInput, JobUpdateInput } from '../jobs/schema.ts'
import { toCreateInput, toUpdateInput } from './jobs-form.ts'

describe('the job form', () => {
  it('turns the form defaults into a valid create input, and form text into typed values', () => {
    const { fields } = jobFormSpec()
    const text = Object.fromEntries(fields.map((f) => [f.key, f.initial]))
    const input = toCreateInput({ ...text, name: 'x', instructions: 'Hi', timezone: 'UTC' })
    expect(JobCreateInput.safeParse(input).success).toBe(true)
    const sampleText = Object.fromEntries(fields.map((f) => [f.key, String(SAMPLE_DEFINITION[f.key])]))
    const expected = Object.fromEntries(fields.map((f) => [f.key, SAMPLE_DEFINITION[f.key]]))
    expect(JobUpdateInput.parse(toUpdateInput(sampleText))).toEqual(expected)
  })

  it('reads the MCP servers field as a list of names, empty meaning none', () => {
    const mcp = jobFormSpec().fields.find((f) => f.key === 'mcp')
    expect(mcp).toMatchObject({ widget: 'list', section: 'advanced', initial: '' })
    expect(toUpdateInput({ mcp: ' github, linear  notion,' })).toEqual({
      mcp: ['github', 'linear', 'notion'],
    })
    expect(JobUpdateInput.parse(toUpdateInput({ mcp: '' }))).toEqual({ mcp: null })
    expect(toCreateInput({ name: 'x', mcp: 'github' })).toMatchObject({ mcp: ['github'] })
    const bad = JobUpdateInput.safeParse(toUpdateInput({ mcp: 'GitHub, github' }))
    expect(bad.success).toBe(false)
    expect(bad.error?.issues[0]?.path[0]).toBe('mcp')
  })
})
