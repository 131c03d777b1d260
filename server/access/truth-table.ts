/**
 * The access truth table of docs/architecture.md ("Scope and access") as data. The pure rules (rules.test.ts), the SQL filter
 * (access-visibility.test.ts) and every HTTP route (jobs-access.test.ts) are tested against it, so
 * they cannot drift apart.
 */

/** Who is asking, relative to one organisation ("org A") and a job its member "creator" made. */
export type CallerKind = 'owner' | 'admin' | 'member' | 'creator' | 'outsider'
export type JobKind = 'personal' | 'shared'

export type TruthRow = { caller: CallerKind; job: JobKind; view: boolean; edit: boolean }

export const CALLER_KINDS: readonly CallerKind[] = ['owner', 'admin', 'member', 'creator', 'outsider']
export const JOB_KINDS: readonly JobKind[] = ['personal', 'shared']

/**
 * One row per (caller, job). "creator" is a plain member who created the job; "outsider" is the
 * owner of another organisation. view = see, list, history; edit = update, pause, run now, delete.
 */
export const TRUTH_TABLE: readonly TruthRow[] = [
  { caller: 'creator', job: 'personal', view: true, edit: true },
  { caller: 'owner', job: 'personal', view: false, edit: false },
  { caller: 'admin', job: 'personal', view: false, edit: false },
  { caller: 'member', job: 'personal', view: false, edit: false },
  { caller: 'outsider', job: 'personal', view: false, edit: false },
  { caller: 'creator', job: 'shared', view: true, edit: true },
  { caller: 'owner', job: 'shared', view: true, edit: true },
  { caller: 'admin', job: 'shared', view: true, edit: true },
  { caller: 'member', job: 'shared', view: true, edit: false },
  { caller: 'outsider', job: 'shared', view: false, edit: false },
]

/** The status a route should answer: success when allowed, 403 when seen but not editable, else 404. */
export function expectedStatus(row: TruthRow, need: 'view' | 'edit', success: number): number {
  if (!row.view) return 404
  if (need === 'view') return success
  return row.edit ? success : 403
}

/** Ids used by {@link tableCaller} and {@link tableJob}. */
export const TABLE_IDS = {
  orgA: 'org_a',
  orgB: 'org_b',
  users: {
    owner: 'u_owner',
    admin: 'u_admin',
    member: 'u_member',
    creator: 'u_creator',
    outsider: 'u_outsider',
  },
} as const

/** The caller a kind stands for: a member of org A with that role, or org B's owner for "outsider". */
export function tableCaller(kind: CallerKind) {
  const role = kind === 'owner' || kind === 'outsider' ? 'owner' : kind === 'admin' ? 'admin' : 'member'
  return {
    userId: TABLE_IDS.users[kind],
    orgId: kind === 'outsider' ? TABLE_IDS.orgB : TABLE_IDS.orgA,
    role,
  } as const
}

/** A job of org A made by "creator", of the given kind. */
export function tableJob(kind: JobKind) {
  return {
    id: `job_${kind}`,
    orgId: TABLE_IDS.orgA,
    scope: kind,
    createdBy: TABLE_IDS.users.creator,
  } as const
}
