/**
 * The job form's Advanced summary names its fields from the real field registry (a server module,
 * so the test lives here rather than beside the component): abbreviations keep their capitals.
 */
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { jobFormSpec } from '#server/jobs/fields.ts'
import { initialDraft } from '#app/components/jobs/job-draft.ts'
import { AdvancedFields } from '#app/components/jobs/job-fields.tsx'

describe('the advanced fields', () => {
  it('list their names in the summary without lowercasing abbreviations', () => {
    const { fields } = jobFormSpec()
    const html = renderToStaticMarkup(
      createElement(AdvancedFields, {
        fields,
        draft: initialDraft(fields),
        set: () => {},
        errorFor: () => null,
      }),
    )
    const summary = /<summary[^>]*>(.*?)<\/summary>/s.exec(html)![1]!
    expect(summary).toContain('after downtime, ')
    expect(summary).toContain('cost cap per run (USD)')
    expect(summary).toContain('MCP servers')
  })
})
