/**
 * Environments' tables: the environment record (whose, where its folder lives), its audit trail,
 * and stored secrets (encrypted like model keys, per user or per org).
 */
import { sql } from 'drizzle-orm'
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { organization, user } from './auth.ts'

const tz = { withTimezone: true } as const

export const environments = pgTable(
  'environments',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    scope: text('scope', { enum: ['personal', 'shared'] }).notNull(),
    /** Who created it: the owner of a personal environment. */
    createdBy: text('created_by')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Whose disk holds the folder (host and ENVIRONMENTS_DIR): its tool calls are served there. */
    instanceId: text('instance_id').notNull(),
    /** Where other instances forward this environment's tool calls (that instance's INSTANCE_URL). */
    instanceUrl: text('instance_url'),
    /** The folder, relative to ENVIRONMENTS_DIR. */
    dir: text('dir').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
    lastActivityAt: timestamp('last_activity_at', tz).notNull().defaultNow(),
    /** Hash of what builds the tree (source, setup, packageManager, skills, provider) when it was built. */
    definitionHash: text('definition_hash'),
    /** The last bootstrap or restore: status, phase, steps with their output tails (lifecycle.ts). */
    bootstrap: jsonb('bootstrap'),
    /** The snapshot on disk (ENVIRONMENT_SNAPSHOTS_DIR/<id>.sparse.tar.gz): which definition, when. */
    snapshotHash: text('snapshot_hash'),
    snapshotAt: timestamp('snapshot_at', tz),
  },
  (t) => [
    uniqueIndex('environments_shared_uq')
      .on(t.orgId, t.name)
      .where(sql`${t.scope} = 'shared'`),
    uniqueIndex('environments_personal_uq')
      .on(t.orgId, t.createdBy, t.name)
      .where(sql`${t.scope} = 'personal'`),
  ],
)

export const environmentAudit = pgTable(
  'environment_audit',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // No foreign key: the trail outlives a deleted environment.
    environmentId: text('environment_id').notNull(),
    orgId: text('org_id').notNull(),
    actorId: text('actor_id'),
    runId: text('run_id'),
    threadId: text('thread_id'),
    /** `change`: a file created, changed or deleted while the environment was in use (rule: the type). */
    kind: text('kind', { enum: ['command', 'write', 'change'] }).notNull(),
    /** The command line or the written path (secret values redacted). */
    subject: text('subject').notNull(),
    /** `network_blocked`: the command ran, but the sandbox refused one or more of its connections. */
    decision: text('decision', { enum: ['allowed', 'approved', 'denied', 'network_blocked'] }).notNull(),
    rule: text('rule'),
    reason: text('reason'),
    exitCode: integer('exit_code'),
    durationMs: integer('duration_ms'),
    bytesOut: bigint('bytes_out', { mode: 'number' }),
    at: timestamp('at', tz).notNull().defaultNow(),
  },
  (t) => [
    index('environment_audit_env_idx').on(t.environmentId, t.at),
    // Retention deletes by age (AUDIT_HISTORY_DAYS): rows are written in time order, so a BRIN
    // index of a few pages finds the old ones without reading the table.
    index('environment_audit_at_brin').using('brin', t.at),
    // A settling run counts its refused commands here (runs/settle.ts).
    index('environment_audit_run_idx')
      .on(t.runId)
      .where(sql`${t.runId} is not null`),
  ],
)

export const secrets = pgTable(
  'secrets',
  {
    id: text('id').primaryKey(),
    /** Exactly one of orgId / userId is set: an org secret or a personal one. */
    orgId: text('org_id').references(() => organization.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** AES-256-GCM: base64 of iv | tag | ciphertext. */
    secret: text('secret').notNull(),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', tz).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('secrets_org_uq')
      .on(t.orgId, t.name)
      .where(sql`${t.userId} is null`),
    uniqueIndex('secrets_user_uq')
      .on(t.userId, t.name)
      .where(sql`${t.orgId} is null`),
  ],
)

/**
 * Self-made skills: `skills/<name>/SKILL.md` the agent wrote in an environment or the workspace.
 * Pending until a person approves; only approved ones can be attached (`skills: [name]`).
 */
export const skills = pgTable(
  'skills',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    content: text('content').notNull(),
    status: text('status', { enum: ['pending_approval', 'approved', 'rejected'] }).notNull(),
    /** Who wrote it (the person whose agent wrote the file). */
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    /** Where it was written: `environment:<id>` or `workspace`. */
    origin: text('origin').notNull(),
    decidedBy: text('decided_by'),
    decidedAt: timestamp('decided_at', tz),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', tz).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('skills_org_name_uq').on(t.orgId, t.name)],
)

export const skillAudit = pgTable(
  'skill_audit',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    skillId: text('skill_id').notNull(),
    orgId: text('org_id').notNull(),
    actorId: text('actor_id'),
    /**
     * proposed, edited (back to pending), approved, rejected, refused (the agent tried to approve
     * it, or to overwrite another person's skill), or deleted (kept after the skill is gone:
     * decision 0457).
     */
    action: text('action', {
      enum: ['proposed', 'edited', 'approved', 'rejected', 'refused', 'deleted'],
    }).notNull(),
    via: text('via', { enum: ['person', 'agent'] }).notNull(),
    at: timestamp('at', tz).notNull().defaultNow(),
  },
  (t) => [
    index('skill_audit_skill_idx').on(t.skillId, t.at),
    index('skill_audit_at_brin').using('brin', t.at),
  ],
)
