/**
 * The overlap policy (pure): what a new run of a job becomes while another run of it is
 * still queued or running. `skip` records the slot as skipped; `queue` lets at most one run wait.
 */
export type ActiveRun = { status: string }

export type OverlapDecision =
  { status: 'free' } | { status: 'queued'; reason: string } | { status: 'skipped'; reason: string }

export function decideOverlap(overlap: 'skip' | 'queue', active: ActiveRun[]): OverlapDecision {
  const running = active.some((r) => r.status === 'running')
  const queued = active.some((r) => r.status === 'queued')
  if (!running && !queued) return { status: 'free' }
  const what = running ? 'the previous run was still running' : 'an earlier run was still waiting to start'
  if (overlap === 'skip') return { status: 'skipped', reason: `${what} (overlap: skip)` }
  if (queued) {
    return {
      status: 'skipped',
      reason: `${what} and one run was already queued (overlap: queue keeps at most one)`,
    }
  }
  return { status: 'queued', reason: 'waits for the previous run to finish (overlap: queue)' }
}
