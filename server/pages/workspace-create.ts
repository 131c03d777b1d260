/**
 * Making a new workspace file from what a person typed in a "New …" dialog: the name becomes a
 * slug checked by the name's own rule, an existing file is never overwritten (409 naming the
 * field), and the file is written through the resources service like any workspace save. The
 * workspace page and the environments page share it.
 */
import { z } from 'zod'
import type { Caller } from '../auth/caller.ts'
import { EnvironmentName, environmentTemplate } from '../environments/definition/definition.ts'
import { toJobName } from '../jobs/field-schemas.ts'
import { HttpError, badRequest } from '../lib/errors.ts'
import { parseInput } from '../lib/validate.ts'
import { parseScope, readResource, writeResource } from '../resources/service.ts'

type Scope = 'personal' | 'shared'

/** People type a title ("Weekly Report!"); the name is its slug, checked by the name's own rule. */
export function slugOf(typed: string | undefined, rule: z.ZodType<string>): string {
  const title = (typed ?? '').trim()
  if (!title) throw badRequest('name: is required', 'name')
  if (!toJobName(title)) throw badRequest('name: needs at least one letter or digit', 'name')
  return parseInput(z.object({ name: rule }), { name: toJobName(title) }).name
}

/** Creating never overwrites: an existing file is a 409 naming the field the person typed. */
export async function assertAbsent(caller: Caller, scope: Scope, path: string, field: string) {
  const existing = await readResource(caller, scope, path).catch((err: unknown) => {
    if (err instanceof HttpError && err.status === 404) return null
    throw err
  })
  if (existing) throw new HttpError(409, 'conflict', `${field}: ${scope}/${path} already exists`, field)
}

/**
 * `environments/<name>.md` from the template (provider, policy, secrets, limits, instructions),
 * in the personal or shared workspace. 400 naming `name` or `scope`, 409 when it exists.
 */
export async function createEnvironmentFile(
  caller: Caller,
  fields: { name?: string; scope?: string },
): Promise<{ name: string; scope: Scope; path: string }> {
  const name = slugOf(fields.name, EnvironmentName)
  const scope = parseScope(fields.scope)
  const path = `environments/${name}.md`
  await assertAbsent(caller, scope, path, 'name')
  await writeResource(caller, scope, path, environmentTemplate(name))
  return { name, scope, path }
}
