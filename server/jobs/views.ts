/**
 * What callers get back for a job: the stored row merged with its run state, the creator's public
 * details, a plain-English schedule and whether this caller may change it.
 */
import type { Caller } from '../auth/caller.ts'
import { canEditJob } from '../access/rules.ts'
import { describeSchedule } from '../cron/cron.ts'
import { definitionOf, type JobDefinition } from './fields.ts'
import type { JobFileView } from './job-file.ts'
import type { JobRecord } from './store.ts'

/** A job as the API, the pages and the agent see it. Times are ISO strings. */
export type JobView = {
  id: string
  name: string
  scope: 'personal' | 'shared'
  orgId: string
  createdBy: { id: string; email: string; name: string }
  /** The schedule in plain English, with its zone: "Every weekday at 07:00 (Europe/Berlin)". */
  description: string
  nextRun: string | null
  lastRun: string | null
  lastStatus: string | null
  lastError: string | null
  /** Commands the last run's agent was refused (policy or network); 0 when none or never run. */
  lastDeniedCommands: number
  /** Why the system paused the job (repeated failures, creator left); null when it did not. */
  suspendedReason: string | null
  /** Bumped on every change a person makes; send it back as If-Match to avoid overwriting others. */
  version: number
  createdAt: string
  updatedAt: string
  /** Whether the caller may update, pause, run or delete it. */
  canEdit: boolean
} & JobDefinition

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** The view of one stored job for one caller. */
export function toJobView(record: JobRecord, caller: Caller): JobView {
  return {
    id: record.id,
    name: record.name,
    scope: record.scope,
    orgId: record.orgId,
    createdBy: { id: record.createdBy, email: record.creatorEmail, name: record.creatorName },
    ...definitionOf(record),
    description: describeSchedule(record.schedule, { timezone: record.timezone }),
    nextRun: iso(record.nextRunAt),
    lastRun: iso(record.lastRunAt),
    lastStatus: record.lastStatus,
    lastError: record.lastError,
    lastDeniedCommands: record.lastDeniedCommands,
    suspendedReason: record.suspendedReason,
    version: record.version,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    canEdit: canEditJob(caller, record),
  }
}

/** The fields the job file renders, from a view: the definition and its creator's email. */
export function toJobFileView(view: JobView): JobFileView {
  return { ...definitionOf(view), createdByEmail: view.createdBy.email }
}
