/**
 * The shape of a job as the pages use it: the server's JobView (server/jobs/service.ts), seen
 * from the browser. Kept structural so loader data fits without importing server code.
 */
type When = string | Date

export type Person = { id: string; email: string; name: string }

export type JobLike = {
  id: string
  name: string
  scope: 'personal' | 'shared'
  orgId: string
  createdBy: Person
  schedule: string
  timezone: string
  enabled: boolean
  runAs: 'creator' | 'shared'
  instructions: string
  description: string
  catchUp: 'latest' | 'skip'
  overlap: 'skip' | 'queue'
  retries: number
  timeoutMinutes: number
  nextRun: When | null
  lastRun: When | null
  lastStatus: string | null
  lastError: string | null
  suspendedReason: string | null
  version: number
  createdAt: When
  updatedAt: When
  canEdit: boolean
}

export type AuditEntry = {
  id: string | number
  action: string
  actor: Person | null
  changes: Record<string, { from: unknown; to: unknown }> | null
  note: string | null
  at: When
}
