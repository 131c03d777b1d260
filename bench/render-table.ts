/**
 * `npm run bench:render-table`: the jobs table's server render alone, in process. Renders the
 * 50-row table (each job with five recent runs, as a list of jobs that have run shows) with
 * react-dom/server's production build inside a React Router stub, and prints the CPU time per
 * render: the median and the best of `--batches` batches of `--renders` renders each, after a
 * warm-up. No database, no HTTP: what the table's components cost (bench/RESULTS.md, "Web: the
 * jobs table renders each fact once").
 */
import { parseArgs } from 'node:util'
import type { JobRow } from '#app/lib/job-types.ts'
import type { RecentRun } from '#app/components/jobs/run-dots.tsx'

// React's production build, as the server runs it: React picks its build when first loaded.
process.env.NODE_ENV = 'production'
const { createElement } = await import('react')
const { renderToString } = await import('react-dom/server')
const { createRoutesStub } = await import('react-router')
const { JobsTable } = await import('#app/components/jobs/jobs-table.tsx')

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '50' },
    runs: { type: 'string', default: '5' },
    renders: { type: 'string', default: '50' },
    batches: { type: 'string', default: '15' },
  },
})

const STATUSES = ['success', 'failed', 'success', 'timed_out', 'success'] as const
const start = Date.parse('2026-12-01T07:00:00Z')
const jobs: JobRow[] = Array.from({ length: Number(args.rows) }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  name: `job-${String(i).padStart(3, '0')}-daily-digest`,
  scope: i % 3 === 0 ? 'shared' : 'personal',
  createdBy: { id: i % 2 ? 'me' : 'other', name: 'Ada Lovelace', email: 'ada@example.com' },
  schedule: '0 7 * * 1-5',
  timezone: 'Europe/Berlin',
  enabled: i % 10 !== 9,
  instructions: 'Summarise yesterday’s sign-ups for the growth team and post them to the channel.',
  description: 'At 07:00, Monday through Friday',
  nextRun: new Date(start + 86_400_000).toISOString(),
  lastRun: new Date(start).toISOString(),
  lastStatus: STATUSES[i % STATUSES.length]!,
  lastError: i % 5 === 1 ? 'exit code 1' : null,
  lastDeniedCommands: i % 7 === 0 ? 2 : 0,
  suspendedReason: i % 25 === 24 ? 'failed 5 times in a row' : null,
  canEdit: true,
}))
const recentRuns: Record<string, RecentRun[]> = Object.fromEntries(
  jobs.map((job, i) => [
    job.id,
    Array.from({ length: Number(args.runs) }, (_, r) => ({
      id: `10000000-0000-4000-8000-${String(i * 10 + r).padStart(12, '0')}`,
      status: STATUSES[(i + r) % STATUSES.length]!,
      scheduledFor: new Date(start - r * 86_400_000).toISOString(),
    })),
  ]),
)

const Stub = createRoutesStub([
  {
    path: '/jobs',
    Component: () =>
      createElement(JobsTable, {
        jobs,
        recentRuns,
        offers: {},
        meId: 'me',
        busy: false,
      }),
  },
])
const render = () => renderToString(createElement(Stub, { initialEntries: ['/jobs'] }))

const html = render()
if (!html.includes('data-testid="jobs-table"')) throw new Error('the stub did not render the table')
for (let i = 0; i < 200; i++) render()

const perRender: number[] = []
for (let b = 0; b < Number(args.batches); b++) {
  const before = process.cpuUsage()
  for (let i = 0; i < Number(args.renders); i++) render()
  const used = process.cpuUsage(before)
  perRender.push((used.user + used.system) / 1000 / Number(args.renders))
}
perRender.sort((a, b) => a - b)
const median = perRender[Math.floor(perRender.length / 2)]!
console.log(
  `${jobs.length} rows × ${args.runs} runs: ${median.toFixed(2)} ms CPU per render (median of ${args.batches} batches of ${args.renders}; best ${perRender[0]!.toFixed(2)} ms), ${(html.length / 1024).toFixed(1)} KB of HTML`,
)
