/**
 * Who gets which stored secrets (docs/decisions/0220): organisation secrets go only where an admin
 * put them. A personal definition (environment, MCP server) gets its owner's own secrets and never
 * the organisation's; a shared one gets the organisation's, and only while the person who saved it
 * last is an admin or owner of the organisation. Checked when a definition is saved (a 400 naming
 * the field) and again every time it is used (a definition saved before the rule, or by someone
 * who has since lost the role, gets nothing). Redaction of values in output is cosmetic, never
 * the control: whoever can run a command with a secret can print it in any encoding.
 */
import { isOrgAdmin, roleOf, type Caller } from '../access/caller.ts'
import { findMembership } from '../accounts/store.ts'
import { HttpError } from '../lib/errors.ts'
import type { KeyOwner } from './owners.ts'
import { selectSecrets } from './secrets-store.ts'

/** Whether `userId` is an admin or owner of `orgId` now (not when they saved something). */
export async function isAdminNow(userId: string | null | undefined, orgId: string): Promise<boolean> {
  if (!userId) return false
  const membership = await findMembership(userId, orgId)
  return !!membership && isOrgAdmin({ role: roleOf(membership.role) })
}

/** The definition a secret is asked for: whose it is, and who saved it last. */
export type SecretHolder =
  | { scope: 'personal'; userId: string }
  | { scope: 'shared'; orgId: string; writer: string | null | undefined; what: string }

/**
 * Where a definition's secrets come from. @throws HttpError 403 (`secrets`) for a shared definition
 * whose last writer is not an admin or owner now.
 */
export async function secretOwnerFor(holder: SecretHolder): Promise<KeyOwner> {
  if (holder.scope === 'personal') return { userId: holder.userId }
  if (await isAdminNow(holder.writer, holder.orgId)) return { orgId: holder.orgId }
  throw new HttpError(
    403,
    'forbidden',
    `secrets: ${holder.what} was last saved by someone who is not an admin of the organisation now, and ` +
      'organisation secrets go only to definitions an admin saved. An admin saving it again gives it its secrets.',
    'secrets',
  )
}

/**
 * At save: the first of `names` the caller may not give a definition of this scope, and why; null
 * when all are fine. A member's shared definition may name none (it could only get the
 * organisation's); a personal one may name the person's own secrets, or names not stored yet, but
 * not one only the organisation holds.
 */
export async function firstRefusedSecret(
  caller: Pick<Caller, 'userId' | 'orgId' | 'role'>,
  scope: 'personal' | 'shared',
  names: readonly string[],
): Promise<{ index: number; message: string } | null> {
  if (names.length === 0) return null
  if (scope === 'shared') {
    if (isOrgAdmin(caller)) return null
    return {
      index: 0,
      message:
        "only the organisation's admins may give a shared definition secrets (it gets organisation secrets only)",
    }
  }
  const [own, org] = await Promise.all([
    selectSecrets({ userId: caller.userId }, [...names]),
    selectSecrets({ orgId: caller.orgId }, [...names]),
  ])
  const mine = new Set(own.map((row) => row.name))
  const theirs = new Set(org.map((row) => row.name))
  const index = names.findIndex((name) => theirs.has(name) && !mine.has(name))
  if (index < 0) return null
  const name = names[index]!
  return {
    index,
    message:
      `${name} is an organisation secret, and only shared definitions an admin saves get those; ` +
      `save a personal secret named ${name} under Settings → Secrets to use your own`,
  }
}
