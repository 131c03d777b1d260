/**
 * Clockwork's own tables. The jobs table keeps what a person writes (the
 * definition) apart from what the scheduler writes (run state): invariant 1.
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { organization, user } from './auth.ts'

const tz = { withTimezone: true } as const

export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    scope: text('scope', { enum: ['personal', 'shared'] }).notNull(),
    name: text('name').notNull(),
    createdBy: text('created_by')
      .notNull()
      .references(() => user.id),

    // Definition: written by people (UI, API, job file, agent tool).
    schedule: text('schedule').notNull(),
    timezone: text('timezone').notNull().default('UTC'),
    enabled: boolean('enabled').notNull().default(true),
    runAs: text('run_as', { enum: ['creator', 'shared'] })
      .notNull()
      .default('creator'),
    instructions: text('instructions').notNull(),
    catchUp: text('catch_up', { enum: ['latest', 'skip'] })
      .notNull()
      .default('latest'),
    overlap: text('overlap', { enum: ['skip', 'queue'] })
      .notNull()
      .default('skip'),
    retries: integer('retries').notNull().default(0),
    timeoutMinutes: integer('timeout_minutes').notNull().default(10),
    /** The most one run may cost (USD, estimated from tokens); null: no cap. */
    maxCostUsd: doublePrecision('max_cost_usd'),
    /** The environment runs work in (environments/<name>.md); null: a scratch folder. */
    environment: text('environment'),
    /** Who does the work: `builtin` (the agent loop) or a harness adapter's id (`claude-code`). */
    harness: text('harness').notNull().default('builtin'),
    /** Whether the job's unattended runs may create and change jobs (not only read them). */
    agentMayEditJobs: boolean('agent_may_edit_jobs').notNull().default(false),
    /** Where a run's result goes when it ends: `{ onSuccess: [target…], onFailure: [target…] }`. */
    notify: jsonb('notify').$type<{ onSuccess?: string[]; onFailure?: string[] } | null>(),
    /** Failed runs in a row before the creator (and, for a shared job, the admins) are alerted. */
    alertAfterFailures: integer('alert_after_failures').notNull().default(2),
    /** Dead-man's switch: alert when no run succeeded for this long (`26h`, `90m`, `2d`). */
    expectSuccessWithin: text('expect_success_within'),
    /** MCP servers (by name) the job's runs may use; null or []: none. */
    mcp: jsonb('mcp').$type<string[] | null>(),
    /** Approved self-made skills (by name) whose text the job's runs get; null: none. */
    skills: jsonb('skills').$type<string[] | null>(),
    /** Unknown frontmatter keys, kept so a job file round-trips. */
    extra: jsonb('extra').$type<Record<string, unknown>>().notNull().default({}),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', tz).notNull().defaultNow(),

    // Run state: written by the scheduler only.
    nextRunAt: timestamp('next_run_at', tz),
    lastRunAt: timestamp('last_run_at', tz),
    lastStatus: text('last_status'),
    lastError: text('last_error'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    /** Commands the last run's agent was refused (policy or network), so the list can filter on it. */
    lastDeniedCommands: integer('last_denied_commands').notNull().default(0),
    /** Set when the system pauses a job (repeated failures, creator left); cleared on re-enable. */
    suspendedReason: text('suspended_reason'),
    stateUpdatedAt: timestamp('state_updated_at', tz),
  },
  (t) => [
    uniqueIndex('jobs_shared_name_uq')
      .on(t.orgId, t.name)
      .where(sql`${t.scope} = 'shared'`),
    uniqueIndex('jobs_personal_name_uq')
      .on(t.orgId, t.createdBy, t.name)
      .where(sql`${t.scope} = 'personal'`),
    // Due work is found through this partial index only (invariant 3).
    index('jobs_due_idx')
      .on(t.nextRunAt)
      .where(sql`${t.enabled} and ${t.suspendedReason} is null`),
    index('jobs_org_idx').on(t.orgId),
    // The dead-man check reads only the jobs that set a window.
    index('jobs_deadman_idx')
      .on(t.id)
      .where(sql`${t.expectSuccessWithin} is not null and ${t.enabled}`),
  ],
)

/**
 * A shared job an admin offered to another member (decision 0512): the job keeps its creator, and
 * runs as them, until the member it names accepts. One per job; a new offer replaces it.
 */
export const jobTransferOffers = pgTable('job_transfer_offers', {
  jobId: text('job_id')
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  toUserId: text('to_user_id')
    .notNull()
    .references(() => user.id, { onDelete: 'cascade' }),
  offeredBy: text('offered_by').references(() => user.id, { onDelete: 'set null' }),
  /** The job's version when offered: a change to the job after it lapses the offer. */
  jobVersion: integer('job_version').notNull(),
  offeredAt: timestamp('offered_at', tz).notNull().defaultNow(),
})

export const jobRuns = pgTable(
  'job_runs',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    orgId: text('org_id').notNull(),
    trigger: text('trigger', { enum: ['schedule', 'manual', 'retry', 'catch-up'] }).notNull(),
    scheduledFor: timestamp('scheduled_for', tz).notNull(),
    attempt: integer('attempt').notNull().default(1),
    status: text('status', {
      enum: [
        'queued',
        'running',
        'success',
        'error',
        'timed_out',
        'interrupted',
        'skipped',
        'missed',
        'cancelled',
      ],
    }).notNull(),
    reason: text('reason'),
    /** Earliest time a queued run may start (retries wait for their backoff). */
    notBefore: timestamp('not_before', tz),
    runAsUserId: text('run_as_user_id'),
    /** Whose model key the run spent (personal, org, deployment), known once it started. */
    keySource: text('key_source', { enum: ['personal', 'org', 'deployment', 'none'] }),
    threadId: text('thread_id'),
    instance: text('instance'),
    leaseExpiresAt: timestamp('lease_expires_at', tz),
    startedAt: timestamp('started_at', tz),
    finishedAt: timestamp('finished_at', tz),
    error: text('error'),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    costUsd: numeric('cost_usd', { precision: 12, scale: 6 }),
    /**
     * What a running run holds for the model call it was last admitted to make (that call's worst
     * case), counted by every budget while the run is `running` (decision 0480).
     */
    reservedUsd: numeric('reserved_usd', { precision: 12, scale: 6 }).notNull().default('0'),
    /** `provider:model` the run spoke to (null for runs that never reached a model). */
    model: text('model'),
    /**
     * Commands the run's agent was refused (denied by the policy, or their connections refused by
     * the network allowlist), counted from the environment audit when the run settles.
     */
    deniedCommands: integer('denied_commands').notNull().default(0),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
  },
  (t) => [
    // Each occurrence runs at most once (invariant 2); a retry is a new attempt of the same slot.
    uniqueIndex('job_runs_slot_uq').on(t.jobId, t.scheduledFor, t.attempt),
    // No separate (job_id, scheduled_for) index: job_runs_slot_uq's prefix serves history pages,
    // overlap checks and the cascade on job delete (checked with EXPLAIN, bench/RESULTS.md).
    index('job_runs_active_idx')
      .on(t.status, t.leaseExpiresAt)
      .where(sql`${t.status} in ('queued', 'running')`),
    index('job_runs_created_idx').on(t.createdAt),
    // The per-organisation count of runs on the deployment's key in the last 24 h (quotas).
    index('job_runs_deployment_key_idx')
      .on(t.orgId, t.startedAt)
      .where(sql`${t.keySource} = 'deployment'`),
    // Everyone's spend on the deployment's key in the last 24 h (its daily budget, asked before each
    // next step of a run on that key, decision 0455).
    index('job_runs_deployment_spend_idx')
      .on(t.startedAt)
      .where(sql`${t.keySource} = 'deployment'`),
    // The organisation's spend on its own key this month (its budget, asked before each next step
    // of a run on that key, and the usage page's banner).
    index('job_runs_org_key_idx')
      .on(t.orgId, t.startedAt)
      .where(sql`${t.keySource} = 'org'`),
    // The scheduler's "next queued run that may start" reads this in order and stops at the first
    // hit, so a backlog of queued runs costs each tick O(1), not O(backlog).
    index('job_runs_ready_idx')
      .on(sql`coalesce(${t.notBefore}, ${t.scheduledFor})`)
      .where(sql`${t.status} = 'queued'`),
  ],
)

export const resources = pgTable(
  'resources',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    scope: text('scope', { enum: ['personal', 'shared'] }).notNull(),
    /** The owning user for personal files; null for shared ones. */
    ownerId: text('owner_id').references(() => user.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    content: text('content').notNull(),
    version: integer('version').notNull().default(1),
    updatedBy: text('updated_by'),
    /**
     * Who created it (set by the server). A shared environment definition belongs to its creator:
     * only they and the org's admins change it. Null for files from before it was recorded.
     */
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', tz).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('resources_shared_path_uq')
      .on(t.orgId, t.path)
      .where(sql`${t.scope} = 'shared'`),
    uniqueIndex('resources_personal_path_uq')
      .on(t.orgId, t.ownerId, t.path)
      .where(sql`${t.scope} = 'personal'`),
  ],
)

export const jobAudit = pgTable(
  'job_audit',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // No foreign key: the trail outlives a deleted job.
    jobId: text('job_id').notNull(),
    orgId: text('org_id').notNull(),
    actorId: text('actor_id'),
    action: text('action').notNull(),
    changes: jsonb('changes').$type<Record<string, { from: unknown; to: unknown }>>(),
    note: text('note'),
    at: timestamp('at', tz).notNull().defaultNow(),
  },
  (t) => [index('job_audit_job_idx').on(t.jobId, t.at), index('job_audit_at_brin').using('brin', t.at)],
)

/**
 * What each person's actions wrote to the audit trails per day (UTC), in bytes: the environment
 * audit and the jobs' are kept for AUDIT_HISTORY_DAYS, so how fast one person may fill them is
 * bounded apart (USER_MAX_AUDIT_MB_PER_DAY, decision 0500). No foreign key: a counter, as the
 * trails outlive their people.
 */
export const auditVolume = pgTable(
  'audit_volume',
  {
    actorId: text('actor_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.actorId, t.day] })],
)

/**
 * What an admin did to a member's account (a password reset link made for them), for the members
 * page's trail. Kept when the member leaves; gone with the organisation.
 */
export const memberAudit = pgTable(
  'member_audit',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    actorId: text('actor_id').references(() => user.id, { onDelete: 'set null' }),
    subjectUserId: text('subject_user_id').references(() => user.id, { onDelete: 'set null' }),
    action: text('action', { enum: ['reset_link_created'] }).notNull(),
    at: timestamp('at', tz).notNull().defaultNow(),
  },
  (t) => [index('member_audit_org_idx').on(t.orgId, t.at)],
)

export const schedulerInstances = pgTable('scheduler_instances', {
  /** Opaque (shown to users); hostname and pid are only logged, next to it, at start-up. */
  id: text('id').primaryKey(),
  startedAt: timestamp('started_at', tz).notNull().defaultNow(),
  lastSeenAt: timestamp('last_seen_at', tz).notNull().defaultNow(),
  lastTickAt: timestamp('last_tick_at', tz),
  stoppedAt: timestamp('stopped_at', tz),
})

export const modelKeys = pgTable(
  'model_keys',
  {
    id: text('id').primaryKey(),
    /** Exactly one of orgId / userId is set: an org key or a personal key. */
    orgId: text('org_id').references(() => organization.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => user.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** AES-256-GCM: base64 of iv | tag | ciphertext. */
    secret: text('secret').notNull(),
    last4: text('last4').notNull(),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', tz).notNull().defaultNow(),
    /**
     * When the provider refused this key (a 401) and what it said; no call is made with it
     * until it is saved again, which clears both (decision 0505).
     */
    refusedAt: timestamp('refused_at', tz),
    refusedReason: text('refused_reason'),
  },
  (t) => [
    uniqueIndex('model_keys_org_uq')
      .on(t.orgId, t.provider)
      .where(sql`${t.userId} is null`),
    uniqueIndex('model_keys_user_uq')
      .on(t.userId, t.provider)
      .where(sql`${t.orgId} is null`),
  ],
)

export const agentThreads = pgTable(
  'agent_threads',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['chat', 'run'] }).notNull(),
    title: text('title'),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', tz).notNull().defaultNow(),
  },
  (t) => [index('agent_threads_user_idx').on(t.userId, t.updatedAt)],
)

export const agentMessages = pgTable(
  'agent_messages',
  {
    id: text('id').primaryKey(),
    threadId: text('thread_id')
      .notNull()
      .references(() => agentThreads.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    role: text('role', { enum: ['system', 'user', 'assistant', 'tool'] }).notNull(),
    /** AI SDK UI message parts (text, tool calls and results). */
    parts: jsonb('parts').$type<unknown[]>().notNull(),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('agent_messages_seq_uq').on(t.threadId, t.seq)],
)

/**
 * One chat turn that spent a model key: whose, on which key, and what it cost. Turns on the
 * deployment's key are counted per organisation a day (decision 0454).
 */
export const chatTurns = pgTable(
  'chat_turns',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    keySource: text('key_source', { enum: ['personal', 'org', 'deployment', 'none'] }).notNull(),
    startedAt: timestamp('started_at', tz).notNull().defaultNow(),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    /** Null while the turn goes on, or when its model has no known price. */
    costUsd: numeric('cost_usd', { precision: 12, scale: 6 }),
    /**
     * On the deployment's key, what the turn holds of the day's budget for the model call it was
     * admitted to make (decision 0496); 0 once it has ended. Counted with `cost_usd`.
     */
    reservedUsd: numeric('reserved_usd', { precision: 12, scale: 6 }).notNull().default('0'),
  },
  (t) => [
    index('chat_turns_deployment_key_idx')
      .on(t.orgId, t.startedAt)
      .where(sql`${t.keySource} = 'deployment'`),
    index('chat_turns_deployment_spend_idx')
      .on(t.startedAt)
      .where(sql`${t.keySource} = 'deployment'`),
    // Settings → Usage sums an organisation's turns on every key over a window of days.
    index('chat_turns_org_started_idx').on(t.orgId, t.startedAt),
    // Retention finds turns older than RUN_HISTORY_DAYS (decision 0504): written in time order.
    index('chat_turns_started_brin').using('brin', t.startedAt),
  ],
)

/**
 * What a deleted run or chat turn had spent, or held, on a key whose spending is capped: the
 * deployment's (its daily budget, an organisation's runs and turns on it a day) or an
 * organisation's own (its monthly budget). The caps sum these rows with the live ones, so deleting
 * a job or an organisation does not give back what its runs spent (decision 0520). Written by a
 * trigger as the row goes (whatever deletes it: a job's or an organisation's cascade, retention),
 * in the deleting transaction; no foreign key, since the records it outlives are gone; kept 32
 * days, the longest window a cap reads (a calendar month).
 */
export const deletedSpend = pgTable(
  'deleted_spend',
  {
    /** The run's or the turn's id. */
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['run', 'turn'] }).notNull(),
    orgId: text('org_id').notNull(),
    userId: text('user_id'),
    keySource: text('key_source', { enum: ['org', 'deployment'] }).notNull(),
    startedAt: timestamp('started_at', tz).notNull(),
    /** Its cost, with what it held for a call it was admitted to make while it went. */
    usd: numeric('usd', { precision: 12, scale: 6 }).notNull(),
  },
  (t) => [
    index('deleted_spend_org_idx').on(t.orgId, t.keySource, t.startedAt),
    index('deleted_spend_started_idx').on(t.keySource, t.startedAt),
  ],
)

/**
 * Organisations their owners deleted (decision 0521). The person who deleted one counts it among
 * theirs for a day (USER_MAX_ORGANIZATIONS), so deleting and making organisations again does not
 * multiply the limits each one has; and every instance removes the folders and snapshots of the
 * environments it held (their ids, as their records go with the organisation). No foreign key:
 * the organisation is gone. Kept a week: an instance started within it still removes its folders.
 */
export const organizationDeletions = pgTable(
  'organization_deletions',
  {
    orgId: text('org_id').primaryKey(),
    deletedBy: text('deleted_by').notNull(),
    environmentIds: jsonb('environment_ids').$type<string[]>().notNull(),
    deletedAt: timestamp('deleted_at', tz).notNull().defaultNow(),
  },
  (t) => [index('organization_deletions_by_idx').on(t.deletedBy, t.deletedAt)],
)

/** Tokens a person made to connect their own computers (stored as a SHA-256 hash, shown once). */
export const machineTokens = pgTable(
  'machine_tokens',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /**
     * The machine this token connects, from its name (unique per person among live tokens). Null
     * for tokens made before ids came from the token: their client names the machine itself.
     */
    machineId: text('machine_id'),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', tz),
    revokedAt: timestamp('revoked_at', tz),
  },
  (t) => [
    uniqueIndex('machine_tokens_hash_uq').on(t.tokenHash),
    index('machine_tokens_owner_idx').on(t.ownerId),
    uniqueIndex('machine_tokens_machine_uq')
      .on(t.ownerId, t.machineId)
      .where(sql`${t.revokedAt} is null and ${t.machineId} is not null`),
  ],
)

/** Connected machines, keyed by (owner, id): two people with the same id share nothing. */
export const machines = pgTable(
  'machines',
  {
    ownerId: text('owner_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    label: text('label').notNull(),
    os: text('os').notNull(),
    version: text('version').notNull(),
    dir: text('dir').notNull(),
    tokenId: text('token_id'),
    /** The instance holding the socket, and the address other instances forward calls to. */
    instanceId: text('instance_id'),
    instanceUrl: text('instance_url'),
    /** One value per connection, so a late close of a replaced socket never marks its successor offline. */
    connectionId: text('connection_id'),
    connected: boolean('connected').notNull().default(false),
    connectedAt: timestamp('connected_at', tz),
    lastSeenAt: timestamp('last_seen_at', tz).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.id] })],
)

/** Which runs used which machine (the Machines page lists them; a stop finds its machines here). */
export const machineRuns = pgTable(
  'machine_runs',
  {
    ownerId: text('owner_id').notNull(),
    machineId: text('machine_id').notNull(),
    runId: text('run_id').notNull(),
    lastUsedAt: timestamp('last_used_at', tz).notNull().defaultNow(),
    /** Set when a stop was asked for; cleared never (idempotent per run). */
    stopRequestedAt: timestamp('stop_requested_at', tz),
    /** Set when the client acknowledged the stop. */
    stopDeliveredAt: timestamp('stop_delivered_at', tz),
  },
  (t) => [
    primaryKey({ columns: [t.ownerId, t.machineId, t.runId] }),
    index('machine_runs_run_idx').on(t.runId),
  ],
)
/**
 * One row per organisation that changed a setting; the settings are validated by `OrgSettings`
 * (server/accounts/org-settings-schema.ts), and missing keys take their defaults on read.
 */
export const orgSettings = pgTable('org_settings', {
  orgId: text('org_id')
    .primaryKey()
    .references(() => organization.id, { onDelete: 'cascade' }),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: timestamp('updated_at', tz).notNull().defaultNow(),
  updatedBy: text('updated_by').references(() => user.id, { onDelete: 'set null' }),
})

/**
 * What the rendered-page cache (server/http/page-cache.ts) checks an entry against: one counter per
 * organisation (`org:<id>`) and per person (`user:<id>`), moved by database triggers when a
 * committed write can change what that organisation's or person's pages show (jobs, runs' states,
 * members, settings, notifications, names), and by nothing else: not by lease renewals, scheduler
 * heartbeats or another organisation's writes. The triggers are deferred to commit, so the counter
 * moves with the write and holds its row lock only while the transaction commits
 * (docs/decisions/0263-page-cache-versions-per-organisation-and-person.md).
 */
export const cacheVersions = pgTable('cache_versions', {
  scope: text('scope').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
})

/**
 * Passwords set through an admin's reset link (decision 0508): the live link (its better-auth
 * verification row, maker and end) and, once it was used, who set the password and when. Until the
 * person resets it by mail, the account accepts only invitations its maker could have sent.
 */
export const adminResetLinks = pgTable('admin_reset_links', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  linkId: text('link_id'),
  linkActorId: text('link_actor_id').references(() => user.id, { onDelete: 'set null' }),
  linkExpiresAt: timestamp('link_expires_at', tz),
  passwordSetById: text('password_set_by_id').references(() => user.id, { onDelete: 'set null' }),
  passwordSetAt: timestamp('password_set_at', tz),
})
