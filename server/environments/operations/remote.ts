/**
 * Environment folders live on the instance that created them. A call arriving on another instance
 * is forwarded to that one over the internal call machines use (its recorded address, the bearer
 * derived from the app secret the instances share), with the caller's identity, which the holder
 * checks again. When the holder does not answer, the call fails with a clear message and the way
 * out: an admin rebuilds the environment here (its files stay behind), or deletes its record only.
 */
import type { Caller } from '../../access/caller.ts'
import { conflict, HttpError, type ErrorBody } from '../../lib/errors.ts'
import { forwardToken } from '../../machines/instance.ts'
import type { OpenEnvironment, Origin } from '../service.ts'
import type { EnvironmentRow } from '../store.ts'

export const ENVIRONMENT_FORWARD_PATH = '/_agent-native/environments/internal/call'
/** Where a delete is forwarded to the holder (decision 0466). */
export const ENVIRONMENT_DELETE_PATH = '/_agent-native/environments/internal/delete'

export type ForwardedOperation = {
  ref: { name?: string | null; runId?: string }
  op: string
  input: unknown
  origin: Origin
}

type Held = Pick<EnvironmentRow, 'id' | 'name' | 'instanceId'>

const REBUILD = (id: string) =>
  `an owner or admin can rebuild it on this instance, starting empty (POST /_agent-native/environments/${id}/rebuild)`
const FORGET = (id: string) =>
  `an owner or admin can delete its record only, leaving the folder there ` +
  `(DELETE /_agent-native/environments/${id}?leaveFolder=true)`

/** 503 `environment_unreachable`: the holder of `row`'s folder did not answer, and the way out. */
export function unreachable(row: Held, why: string, wayOut = REBUILD(row.id)) {
  return new HttpError(
    503,
    'environment_unreachable',
    `The environment ${row.name} lives on instance ${row.instanceId}, which ${why}. Its files are there; ` +
      `${wayOut}.`,
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
    throw unreachable(opened.row, 'is not this one either (it moved while the call was forwarded)')
  if (!url) throw unreachable(opened.row, 'never recorded an address')
  const seconds = (call.input as { timeoutSeconds?: number }).timeoutSeconds ?? opened.limits.timeoutSeconds
  const body = { userId: caller.userId, orgId: caller.orgId, ...call }
  return postToHolder(opened.row, url, ENVIRONMENT_FORWARD_PATH, body, (seconds + 60) * 1000)
}

/**
 * Asks the holder of `row`'s folder to delete the environment, checking the caller, the busy rule
 * and removing the folder there. Its refusals (403, 404, 409 busy) come back unchanged.
 */
export async function forwardDelete(
  caller: Caller,
  row: Held & Pick<EnvironmentRow, 'instanceUrl'>,
  alreadyForwarded: boolean,
): Promise<void> {
  // Moved while the delete was on its way (a rebuild): not "unreachable", which would let the
  // sender forget a record whose folder is alive somewhere.
  if (alreadyForwarded)
    throw conflict(`The environment ${row.name} moved while the delete was forwarded: try again`)
  const wayOut = FORGET(row.id)
  if (!row.instanceUrl) throw unreachable(row, 'never recorded an address', wayOut)
  const body = { userId: caller.userId, orgId: caller.orgId, id: row.id }
  // Emptying a large folder as the sandbox uid takes a while; a holder that hangs is unreachable.
  await postToHolder(row, row.instanceUrl, ENVIRONMENT_DELETE_PATH, body, 120_000, wayOut)
}

async function postToHolder(
  row: Held,
  url: string,
  path: string,
  body: object,
  timeoutMs: number,
  wayOut?: string,
) {
  let res: Response
  try {
    res = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${forwardToken()}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch {
    throw unreachable(row, `does not answer at ${url}`, wayOut)
  }
  const answer = (await res.json().catch(() => null)) as { result: unknown } | ErrorBody | null
  if (res.ok && answer && 'result' in answer) return answer.result
  if (answer && 'error' in answer)
    throw new HttpError(res.status, answer.error.code, answer.error.message, answer.error.field)
  throw unreachable(row, `answered ${res.status} at ${url}`, wayOut)
}
