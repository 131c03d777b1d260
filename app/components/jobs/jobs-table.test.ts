import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import type { JobRow } from '#app/lib/job-types.ts'
import { JobsTable } from './jobs-table.tsx'

const job: JobRow = {
  id: 'job_1',
  name: 'nightly-digest',
  scope: 'shared',
  createdBy: { id: 'me', name: 'Ada Lovelace', email: 'ada@example.com' },
  schedule: '0 7 * * 1-5',
  timezone: 'Europe/Berlin',
  enabled: true,
  instructions: 'Summarise the day.',
  description: 'Every weekday at 07:00 (Europe/Berlin)',
  nextRun: '2026-12-02T06:00:00.000Z',
  lastRun: '2026-12-01T06:00:00.000Z',
  lastStatus: 'success',
  lastError: null,
  lastDeniedCommands: 2,
  suspendedReason: null,
  canEdit: true,
}
const runs = ['run_a', 'run_b', 'run_c'].map((id, i) => ({
  id,
  status: 'success',
  scheduledFor: `2026-11-${29 + i}T06:00:00.000Z`,
}))

function renderTable(): string {
  const Stub = createRoutesStub([
    {
      path: '/jobs',
      Component: () =>
        createElement(JobsTable, {
          jobs: [job],
          recentRuns: { [job.id]: runs },
          offers: { [job.id]: { toMe: true, toName: 'Me' } },
          meId: 'me',
          busy: false,
        }),
    },
  ])
  return renderToString(createElement(Stub, { initialEntries: ['/jobs'] }))
}

const count = (html: string, text: string) => html.split(text).length - 1

// The browser spec (layout-give-way) checks what shows at each width; this checks what is sent:
// a row that rendered its facts twice (one copy hidden) costs the server twice the work.
describe('the jobs table', () => {
  it('renders each fact of a row once', () => {
    const html = renderTable()
    expect(count(html, job.description)).toBe(1)
    expect(count(html, `dateTime="${job.nextRun}"`)).toBe(1)
    expect(count(html, `dateTime="${job.lastRun}"`)).toBe(1)
    expect(count(html, '>Succeeded<')).toBe(1)
    expect(count(html, 'data-testid="denied-chip"')).toBe(1)
    expect(count(html, 'data-testid="run-dots"')).toBe(1)
    expect(count(html, 'data-testid="offer-chip"')).toBe(1)
    expect(count(html, `href="/jobs/${job.id}/runs/`)).toBe(runs.length)
    expect(count(html, 'role="switch"')).toBe(1)
  })
})
