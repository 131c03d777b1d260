/**
 * The caller's organisation as Settings → Organisation shows and changes it, and a new one made
 * from the switcher. The writes go through better-auth's organization endpoints (one door), called
 * with the caller's own session, so its role checks and our hooks (auth.ts: the name check, how
 * many organisations a person may own, the only organisation kept, the clean-up after a delete)
 * apply as they do over HTTP; here we only refuse early in our words and shape the answers.
 */
import { and, asc, eq, inArray, like, or } from 'drizzle-orm'
import { listMemberships } from '../accounts/store.ts'
import { getDb } from '../db/client.ts'
import { whileLocked } from '../db/lock.ts'
import { member, organization, user } from '../db/schema/index.ts'
import { badRequest, forbidden, notFound } from '../lib/errors.ts'
import { toSlug } from '../lib/text.ts'
import { authAnswer } from './auth-answer.ts'
import { COUNTED_WRITES_LOCK, getAuth } from './auth.ts'
import { isOrgAdmin, type Caller } from './caller.ts'
import { checkDisplayName } from './user-fields.ts'

/** A slug's stem: short enough that a `-<n>` after it stays readable. */
const SLUG_STEM = 48

/** The caller's organisation: its name and slug, and who runs it (whom a member asks). */
export async function findOrganization(caller: Caller) {
  const db = getDb()
  const [found] = await db
    .select({ id: organization.id, name: organization.name, slug: organization.slug })
    .from(organization)
    .where(eq(organization.id, caller.orgId))
  if (!found) throw notFound('This organisation no longer exists')
  const managers = await db
    .select({ name: user.name, role: member.role })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(and(eq(member.organizationId, caller.orgId), inArray(member.role, ['owner', 'admin'])))
    .orderBy(asc(member.createdAt))
  return { ...found, managers }
}

/** The name as typed, trimmed, or the 400 naming `name` that the hook would answer. */
function checkedName(name: string | undefined): string {
  const trimmed = (name ?? '').trim()
  const invalid = checkDisplayName(trimmed)
  if (invalid) throw invalid
  return trimmed
}

/** A slug from the name no organisation has: `acme`, else `acme-2`, `acme-3`… (read under the lock). */
async function freeSlug(name: string): Promise<string> {
  const stem = toSlug(name, SLUG_STEM) || 'organisation'
  const taken = new Set(
    (
      await getDb()
        .select({ slug: organization.slug })
        .from(organization)
        .where(or(eq(organization.slug, stem), like(organization.slug, `${stem}-%`)))
    ).map((row) => row.slug),
  )
  let slug = stem
  for (let n = 2; taken.has(slug); n++) slug = `${stem}-${n}`
  return slug
}

/**
 * Makes an organisation the caller owns and makes it their active one. Counted under the lock the
 * HTTP endpoint's creates take (auth.ts), where the slug is chosen too, so two at once cannot both
 * pass the count or pick the same slug.
 */
export async function createOrganization(headers: Headers, name: string | undefined) {
  const checked = checkedName(name)
  return whileLocked(COUNTED_WRITES_LOCK, async () => {
    const slug = await freeSlug(checked)
    const made = await authAnswer<{ id: string }>(
      getAuth().api.createOrganization({ body: { name: checked, slug }, headers, asResponse: true }),
    )
    return { id: made.id, slug }
  })
}

/** Renames the caller's organisation (owners and admins). */
export async function renameOrganization(caller: Caller, headers: Headers, name: string | undefined) {
  if (!isOrgAdmin(caller)) throw forbidden('Only owners and admins can rename the organisation')
  const checked = checkedName(name)
  await authAnswer(
    getAuth().api.updateOrganization({
      body: { organizationId: caller.orgId, data: { name: checked } },
      headers,
      asResponse: true,
    }),
  )
  return { name: checked }
}

/**
 * Deletes the caller's organisation (owners only), once they typed its name, and makes another of
 * theirs active: what its id is, for the page to go to. Their only one is refused (409) by the hook.
 */
export async function deleteOrganization(caller: Caller, headers: Headers, typedName: string | undefined) {
  if (caller.role !== 'owner') throw forbidden('Only owners can delete the organisation')
  if ((typedName ?? '').trim() !== caller.orgName.trim())
    throw badRequest(
      `confirmName: type the organisation's name, ${caller.orgName}, to delete it`,
      'confirmName',
    )
  await authAnswer(
    getAuth().api.deleteOrganization({
      body: { organizationId: caller.orgId },
      headers,
      asResponse: true,
    }),
  )
  const [next] = await listMemberships(caller.userId)
  if (next) {
    await authAnswer(
      getAuth().api.setActiveOrganization({
        body: { organizationId: next.orgId },
        headers,
        asResponse: true,
      }),
    )
  }
  return { nextOrgId: next?.orgId ?? null }
}
