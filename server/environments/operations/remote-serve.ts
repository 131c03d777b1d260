/** Serves an environment call or delete another instance forwarded here (see remote.ts). */
import { z } from 'zod'
import { callerFrom } from '../../access/caller.ts'
import { findMembership, findUser } from '../../accounts/store.ts'
import { notFound, unauthorized } from '../../lib/errors.ts'
import { parseInput } from '../../lib/validate.ts'
import { isForwardToken } from '../../machines/instance.ts'
import { deleteEnvironmentAsked } from './delete-environment.ts'
import { NEEDS, operate, type OperationName } from './operations.ts'

const Forwarded = z.strictObject({
  userId: z.string().min(1),
  orgId: z.string().min(1),
  ref: z.strictObject({ name: z.string().nullish(), runId: z.string().optional() }),
  op: z.enum(Object.keys(NEEDS) as [OperationName, ...OperationName[]]),
  input: z.record(z.string(), z.unknown()),
  origin: z.strictObject({
    threadId: z.string().optional(),
    runId: z.string().optional(),
    turnId: z.string().optional(),
  }),
})

const ForwardedDelete = z.strictObject({
  userId: z.string().min(1),
  orgId: z.string().min(1),
  id: z.string().min(1),
})

/** The forwarded body, from an instance of this app only. */
async function readForwarded<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  if (!isForwardToken(request.headers.get('authorization'))) throw unauthorized('Not an instance of this app')
  return parseInput(schema, await request.json().catch(() => null))
}

/** The sender resolved the caller; it is rebuilt here from the database, with today's role. */
async function callerOf(userId: string, orgId: string) {
  const [user, membership] = await Promise.all([findUser(userId), findMembership(userId, orgId)])
  if (!user || !membership) throw notFound('No such member')
  return callerFrom(user, membership)
}

export async function serveForwardedOperation(request: Request) {
  const call = await readForwarded(request, Forwarded)
  const caller = await callerOf(call.userId, call.orgId)
  const { result } = await operate(caller, call.ref, call.op, call.input as never, call.origin, true)
  return { result }
}

/** A delete forwarded by the instance a person asked: checked and done here, where the folder is. */
export async function serveForwardedDelete(request: Request) {
  const call = await readForwarded(request, ForwardedDelete)
  const caller = await callerOf(call.userId, call.orgId)
  return { result: await deleteEnvironmentAsked(caller, call.id, { forwarded: true }) }
}
