/**
 * Environment folders live on the instance that created them. A call arriving on another instance
 * is forwarded to that one over the internal call machines use (its recorded address, the bearer
 * derived from the app secret the instances share), with the caller's identity, which the holder
 * checks again. When the holder does not answer, the call fails with a clear message and the way
 * out: an admin rebuilds the environment here (its files stay behind).
 */
import type { Caller } from '../../access/caller.ts'
import { HttpError, type ErrorBody } from '../../lib/errors.ts'
import { forwardToken } from '../../machines/instance.ts'
import type { OpenEnvironment, Origin } from '../service.ts'

export const ENVIRONMENT_FORWARD_PATH = '/_agent-native/environments/internal/call'

export type ForwardedOperation = {
  ref: { name?: string | null; runId?: string }
  op: string
  input: unknown
  origin: Origin
}

const REBUILD = (id: string) => `POST /_agent-native/environments/${id}/rebuild`

export function unreachable(opened: Pick<OpenEnvironment, 'row' | 'elsewhere'>, why: string) {
  const { row } = opened
  return new HttpError(
    503,
    'environment_unreachable',
    `The environment ${row.name} lives on instance ${row.instanceId}, which ${why}. Its files are there; ` +
      `an owner or admin can rebuild it on this instance, starting empty (${REBUILD(row.id)}).`,
  )
}

export async function forwardOperation(
  caller: Caller,
  opened: OpenEnvironment,
  call: ForwardedOperation,
  alreadyForwarded: boolean,
): Promise<unknown> {
  const url = opened.elsewhere?.instanceUrl
  if (alreadyForwarded)
    throw unreachable(opened, 'is not this one either (it moved while the call was forwarded)')
  if (!url) throw unreachable(opened, 'never recorded an address')
  const seconds = (call.input as { timeoutSeconds?: number }).timeoutSeconds ?? opened.limits.timeoutSeconds
  let res: Response
  try {
    res = await fetch(url + ENVIRONMENT_FORWARD_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${forwardToken()}` },
      body: JSON.stringify({ userId: caller.userId, orgId: caller.orgId, ...call }),
      signal: AbortSignal.timeout((seconds + 60) * 1000),
    })
  } catch {
    throw unreachable(opened, `does not answer at ${url}`)
  }
  const body = (await res.json().catch(() => null)) as { result: unknown } | ErrorBody | null
  if (res.ok && body && 'result' in body) return body.result
  if (body && 'error' in body)
    throw new HttpError(res.status, body.error.code, body.error.message, body.error.field)
  throw unreachable(opened, `answered ${res.status} at ${url}`)
}
