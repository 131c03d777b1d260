/**
 * What happens around the agent's work in an environment: the files a command changed (watched,
 * recorded in the audit as kind `change` with the run or thread) and the self-made skills it wrote.
 */
import { and, eq, gt, or, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Caller } from '../../access/caller.ts'
import { getDb } from '../../db/client.ts'
import { environmentAudit, environments } from '../../db/schema/environments.ts'
import type { OpenEnvironment, Origin, Watched } from '../service.ts'
import { noticeSkillFile, SKILL_FILE, type SkillRefusal, type SkillView } from '../skills/skills.ts'
import { insertAudit } from '../store.ts'
import { watcherFor } from '../providers/providers.ts'
import { type FileEvent, MAX_CHANGE_PATH } from '../watch/watch.ts'
import { IdPageQuery, PAGE_LIMIT_MAX } from '../../lib/paging.ts'
import { queryInteger } from '../../lib/query-integer.ts'
import { findVisibleRun } from '../../runs/service.ts'
import { clipText } from '../../lib/text.ts'
import { parseInput } from '../../lib/validate.ts'

export type Activity = { files: FileEvent[]; skills: (SkillView | SkillRefusal)[] }

const originOf = (opened: OpenEnvironment) => `environment:${opened.row.id}`

/**
 * Runs `work` and records what its command changed (natively, or by polling a machine:
 * providers.ts). The folder is watched only while the command itself runs: `work` wraps that step
 * in the `watched` it is given, after the policy allowed the line. A line that waits for the judge,
 * or is refused, costs no watch: forty lines waiting their turn each polled the folder with a
 * `find` child every second, which held a large server's loop in `spawn`. Self-made skills are
 * noticed only for the agent's commands in a folder on this disk (`skills`): they are read from it.
 */
export async function watchWhile<T>(
  caller: Caller,
  opened: OpenEnvironment,
  origin: Origin,
  work: (watched: Watched) => Promise<T>,
  options: { skills: boolean },
): Promise<{ result: T } & Activity> {
  let events: FileEvent[] = []
  const watched: Watched = async (exec) => {
    const watch = await watcherFor(opened.target, opened.root)()
    const ran = await exec().catch((err: unknown) => {
      watch.cancel()
      throw err
    })
    events = await watch.stop()
    return ran
  }
  const result = await work(watched)
  const redact = opened.files.redact ?? ((text: string) => text)
  // A path may carry a secret value: shown and recorded redacted (read as it is, below), then cut.
  const files = events.map((event) => ({ ...event, path: clipText(redact(event.path), MAX_CHANGE_PATH) }))
  await insertAudit(
    files.map((event) => ({
      environmentId: opened.row.id,
      orgId: opened.row.orgId,
      actorId: caller.userId,
      runId: origin.runId,
      threadId: origin.threadId,
      kind: 'change' as const,
      subject: event.path,
      decision: 'allowed' as const,
      rule: event.type,
    })),
  )
  const skills: Activity['skills'] = []
  for (const event of options.skills ? events : []) {
    if (event.type === 'delete' || !SKILL_FILE.test(event.path)) continue
    const skill = await noticeSkillFile(caller, opened.root, event.path, originOf(opened))
    if (skill) skills.push(skill)
  }
  return { result, files, skills }
}

/** After a file tool wrote `path`: a self-made skill is stored as pending. */
export async function afterWrite(caller: Caller, opened: OpenEnvironment, path: string) {
  return noticeSkillFile(caller, opened.root, path, originOf(opened))
}

/**
 * A page of the run's changed files: at most `limit` (1–200, default 200) of them with `cursor`
 * (the previous page's `nextCursor`), in order of their last change. A run's commands can record
 * hundreds of paths each, so the whole list was unbounded.
 */
const RunFilesQuery = z.strictObject({
  limit: queryInteger({ min: 1, max: PAGE_LIMIT_MAX })
    .default(PAGE_LIMIT_MAX)
    .describe(`How many files to return (1–${PAGE_LIMIT_MAX}, default ${PAGE_LIMIT_MAX})`),
  cursor: IdPageQuery.shape.cursor,
})

export type RunFile = { environment: string; path: string; type: FileEvent['type']; timestamp: string }

/**
 * The files a job run changed in environments the caller can see, in order of their last change,
 * a page at a time: `nextCursor` is null on the last page. A file's place is its latest event
 * (the audit's increasing id), which is also the cursor, so a page costs one LIMIT and a path
 * recorded before paths were cut (MAX_CHANGE_PATH) is read cut too.
 *
 * @throws HttpError 404 unless the caller may see the run (its job), as `GET /runs/:id`: a
 *   personal job's run in a shared environment told anyone with its id what it changed.
 */
export async function changedFilesOfRun(
  caller: Caller,
  runId: string,
  query: unknown = {},
): Promise<{ files: RunFile[]; nextCursor: string | null }> {
  const { limit, cursor } = parseInput(RunFilesQuery, query)
  await findVisibleRun(caller, runId)
  const last = sql<number>`max(${environmentAudit.id})`.mapWith(Number)
  const rows = await getDb()
    .select({
      environment: environments.name,
      head: sql<string>`left(${environmentAudit.subject}, ${MAX_CHANGE_PATH})`,
      length: sql<number>`char_length(${environmentAudit.subject})`.mapWith(Number),
      type: environmentAudit.rule,
      at: sql<Date>`max(${environmentAudit.at})`,
      last,
    })
    .from(environmentAudit)
    .innerJoin(environments, eq(environments.id, environmentAudit.environmentId))
    .where(
      and(
        eq(environmentAudit.runId, runId),
        eq(environmentAudit.kind, 'change'),
        eq(environmentAudit.orgId, caller.orgId),
        // The environments the caller may see (canViewJob), here so that a page is full.
        eq(environments.orgId, caller.orgId),
        or(eq(environments.scope, 'shared'), eq(environments.createdBy, caller.userId)),
      ),
    )
    .groupBy(environments.name, environments.id, environmentAudit.subject, environmentAudit.rule)
    .having(cursor === undefined ? undefined : gt(last, cursor))
    .orderBy(last)
    .limit(limit + 1)
  const page = rows.slice(0, limit)
  return {
    files: page.map((r) => ({
      environment: r.environment,
      path: clipText(r.head, MAX_CHANGE_PATH, r.length),
      type: r.type as FileEvent['type'],
      timestamp: new Date(r.at).toISOString(),
    })),
    nextCursor: rows.length > limit ? String(page.at(-1)!.last) : null,
  }
}
