/**
 * Self-made skills. When the agent writes `skills/<name>/SKILL.md` (frontmatter `name`,
 * `description`) in an environment, the text is stored as `pending_approval`; writing it again
 * with other text sends an approved skill back to pending. A person (an org admin, on the Skills
 * page) approves or rejects it; the agent's own attempt is refused and audited. Only approved
 * skills can be attached (`skills: [name]` in a definition), and are projected as
 * `.skills/<name>/SKILL.md`.
 *
 * Names are the organisation's, so a skill's text is changed only by its author or an admin; its
 * author is whoever wrote the text it has now (docs/decisions/0222). Anyone else's agent writing
 * the same name is refused (audited): the file stays in their folder, the skill stays as it was.
 */
import { type Caller, isOrgAdmin } from '../../access/caller.ts'
import { getDb } from '../../db/client.ts'
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts'
import { parseFrontmatter } from '../../lib/frontmatter.ts'
import { newId } from '../../lib/ids.ts'
import { IdPageQuery } from '../../lib/paging.ts'
import { parseInput } from '../../lib/validate.ts'
import { SkillName } from '../definition/definition-parts.ts'
import { readInside, removeInside } from '../exec/inside.ts'
import {
  countSkillAudit,
  decideSkill as decideRow,
  findSkill,
  findSkillById,
  insertSkillAudit,
  listSkills as listRows,
  selectSkillAudit,
  type SkillRow,
  upsertSkill,
} from './skills-store.ts'
import { checkSkillQuota } from './skills-quota.ts'

/** The path of a self-made skill inside an environment. */
export const SKILL_FILE = /^skills\/([a-z0-9][a-z0-9-]{0,62})\/SKILL\.md$/
const MAX_SKILL_BYTES = 64 * 1024

export type SkillView = {
  id: string
  name: string
  description: string
  content: string
  status: SkillRow['status']
  origin: string
  createdBy: string | null
  decidedBy: string | null
  decidedAt: string | null
  updatedAt: string
}

/** A SKILL.md whose name belongs to someone else's skill: not recorded. */
export type SkillRefusal = { name: string; status: 'refused'; reason: string }

const view = (row: SkillRow): SkillView => ({
  id: row.id,
  name: row.name,
  description: row.description,
  content: row.content,
  status: row.status,
  origin: row.origin,
  createdBy: row.createdBy,
  decidedBy: row.decidedBy,
  decidedAt: row.decidedAt?.toISOString() ?? null,
  updatedAt: row.updatedAt.toISOString(),
})

/** The text of an approved skill. @throws HttpError 400 naming `skills` when it is not approved. */
export async function approvedSkillContent(orgId: string, name: string): Promise<string> {
  const row = await findSkill(orgId, name)
  if (!row || row.status !== 'approved')
    throw badRequest(
      `skills: ${name} is not an approved skill (a person approves it on the Skills page)`,
      'skills',
    )
  return row.content
}

/**
 * Records a SKILL.md the agent wrote at `path` under `root` (ignored for other paths). Returns the
 * skill when its text was new or changed (then pending, with the writer as its author), a refusal
 * when the name is another person's skill and the writer is not an admin, else undefined.
 */
export async function noticeSkillFile(
  caller: Caller,
  root: string,
  path: string,
  origin: string,
): Promise<SkillView | SkillRefusal | undefined> {
  const match = SKILL_FILE.exec(path)
  if (!match) return undefined
  // A command may have made the file a link to a host file: read only a regular file inside.
  const text = await readInside(root, path, MAX_SKILL_BYTES)
  if (text === undefined) return undefined
  let data: Record<string, unknown>
  try {
    data = parseFrontmatter(text).data as Record<string, unknown>
  } catch {
    return undefined
  }
  const name = SkillName.safeParse(data.name ?? match[1])
  if (!name.success || name.data !== match[1]) return undefined
  const description = typeof data.description === 'string' ? data.description.slice(0, 1024) : ''
  const before = await findSkill(caller.orgId, name.data)
  if (before && before.createdBy !== caller.userId && !isOrgAdmin(caller)) {
    if (before.content === text && before.description === description) return undefined
    await insertSkillAudit({
      skillId: before.id,
      orgId: caller.orgId,
      actorId: caller.userId,
      action: 'refused',
      via: 'agent',
    })
    return {
      name: name.data,
      status: 'refused',
      reason: `The skill ${name.data} is someone else's: only its author and the organisation's admins change it. Choose another name.`,
    }
  }
  // The skill and its audit row are written together, after the organisation's limit is checked.
  const stored = await getDb().transaction(async (tx) => {
    await checkSkillQuota(caller.orgId, name.data, tx).catch(async (err: unknown) => {
      // A skill the limit refuses leaves no file behind either (decision 0463): the agent's
      // command or file tool wrote it before it could be counted, and it would stay for good.
      await removeInside(root, path)
      await removeInside(root, `skills/${match[1]}`, { folder: true }) // the folder, once empty
      throw err
    })
    const row = await upsertSkill(
      {
        id: newId('skill'),
        orgId: caller.orgId,
        name: name.data,
        description,
        content: text,
        createdBy: caller.userId,
        origin,
      },
      tx,
    )
    if (!row) return undefined // the same text again: nothing changed
    await insertSkillAudit(
      {
        skillId: row.id,
        orgId: caller.orgId,
        actorId: caller.userId,
        action: before ? 'edited' : 'proposed',
        via: 'agent',
      },
      tx,
    )
    return row
  })
  return stored && view(stored)
}

export async function listSkills(caller: Caller): Promise<SkillView[]> {
  return (await listRows(caller.orgId)).map(view)
}

/**
 * A skill and a page of its audit trail, newest first, each entry with its `actor`'s name
 * (`limit`, and `cursor` from the previous page's `nextCursor` for older entries; `total` counts
 * them all): a skill's trail grows with
 * every edit and refused attempt, so it is never read whole.
 * @throws HttpError 400 naming `limit` or `cursor`; 404 for a skill of another organisation
 */
export async function getSkill(caller: Caller, id: string, query: unknown = {}) {
  const { limit, cursor } = parseInput(IdPageQuery, query ?? {})
  const row = await findSkillById(id)
  if (!row || row.orgId !== caller.orgId) throw notFound('No such skill')
  const [rows, total] = await Promise.all([
    selectSkillAudit(id, { limit: limit + 1, beforeId: cursor }),
    countSkillAudit(id),
  ])
  const audit = rows.slice(0, limit).map(({ entry, actorName }) => ({
    ...entry,
    at: entry.at.toISOString(),
    // Who, by name (null once that person's account is gone).
    actor: entry.actorId ? { id: entry.actorId, name: actorName } : null,
  }))
  const nextCursor = rows.length > limit ? String(audit.at(-1)!.id) : null
  return { skill: view(row), audit, total, nextCursor }
}

/**
 * A decision on a skill. `via: 'agent'` is always refused (and audited as `refused`): only a
 * person approves. `updatedAt` must be the text the person saw: an edit since then is a 409.
 */
export async function decideSkill(
  caller: Caller,
  id: string,
  decision: 'approve' | 'reject',
  via: 'person' | 'agent',
  seenUpdatedAt?: string,
): Promise<SkillView> {
  const row = await findSkillById(id)
  if (!row || row.orgId !== caller.orgId) throw notFound('No such skill')
  if (via === 'agent') {
    await insertSkillAudit({ skillId: id, orgId: row.orgId, actorId: caller.userId, action: 'refused', via })
    throw forbidden('Only a person can approve or reject a skill, on the Skills page')
  }
  if (!isOrgAdmin(caller)) throw forbidden("Only the organisation's admins approve or reject skills")
  if (seenUpdatedAt !== undefined && seenUpdatedAt !== row.updatedAt.toISOString())
    throw conflict('The skill changed since you read it; review the new text', 'updatedAt')
  const decided = await decideRow(
    id,
    decision === 'approve' ? 'approved' : 'rejected',
    caller.userId,
    row.updatedAt,
  )
  if (!decided) throw conflict('The skill changed since you read it; review the new text', 'updatedAt')
  await insertSkillAudit({
    skillId: id,
    orgId: row.orgId,
    actorId: caller.userId,
    action: decision === 'approve' ? 'approved' : 'rejected',
    via,
  })
  return view(decided)
}

/** Finds a skill by name for the agent's tool. */
export async function skillByName(caller: Caller, name: string) {
  const row = await findSkill(caller.orgId, name)
  if (!row) throw notFound(`No skill named ${name}`)
  return row
}
