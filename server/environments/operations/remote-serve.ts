/** Serves an environment call another instance forwarded here (see remote.ts). */
import { z } from 'zod'
import { callerFrom } from '../../access/caller.ts'
import { findMembership, findUser } from '../../accounts/store.ts'
import { notFound, unauthorized } from '../../lib/errors.ts'
import { parseInput } from '../../lib/validate.ts'
import { isForwardToken } from '../../machines/instance.ts'
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

export async function serveForwardedOperation(request: Request) {
  if (!isForwardToken(request.headers.get('authorization'))) throw unauthorized('Not an instance of this app')
  const call = parseInput(Forwarded, await request.json().catch(() => null))
  // The sender resolved the caller; it is rebuilt here from the database, with today's role.
  const [user, membership] = await Promise.all([
    findUser(call.userId),
    findMembership(call.userId, call.orgId),
  ])
  if (!user || !membership) throw notFound('No such member')
  const caller = callerFrom(user, membership)
  const { result } = await operate(caller, call.ref, call.op, call.input as never, call.origin, true)
  return { result }
}
