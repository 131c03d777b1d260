import { RotateCcw, Square } from 'lucide-react'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { Button } from '#app/components/ui/button.tsx'
import { isActive, type RunLike } from './types.ts'

/** Failed or cancelled: what retry accepts (server/runs/control.ts RETRYABLE_STATUSES). */
export const canRetry = (run: Pick<RunLike, 'status'>) =>
  ['error', 'timed_out', 'interrupted', 'cancelled'].includes(run.status)

const ACTIONS = {
  cancel: { Icon: Square, label: 'Cancel run', busyLabel: 'Cancelling…' },
  retry: { Icon: RotateCcw, label: 'Retry', busyLabel: 'Retrying…' },
} as const

async function post(runId: string, what: 'cancel' | 'retry'): Promise<RunLike> {
  const res = await fetch(`/_agent-native/runs/${encodeURIComponent(runId)}/${what}`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: '{}',
  })
  const body = (await res.json().catch(() => null)) as { run?: RunLike; error?: { message: string } } | null
  if (!res.ok || !body?.run) throw new Error(body?.error?.message ?? `The server answered ${res.status}`)
  return body.run
}

/**
 * Cancel (queued or running) and Retry (failed or cancelled) for one run; the run-now right is
 * checked by the server. A retry opens the new run's page.
 */
export function RunActions({ run, onChange }: { run: RunLike; onChange: () => void }) {
  const navigate = useNavigate()
  const [busy, setBusy] = useState<null | 'cancel' | 'retry'>(null)
  async function act(what: 'cancel' | 'retry') {
    setBusy(what)
    try {
      const next = await post(run.id, what)
      if (what === 'cancel') {
        toast.success('Run cancelled')
        onChange()
      } else {
        toast.success('Retry queued')
        void navigate(`/jobs/${encodeURIComponent(next.jobId)}/runs/${encodeURIComponent(next.id)}`)
      }
    } catch (err) {
      toast.error(`Could not ${what} the run: ${(err as Error).message}`)
    } finally {
      setBusy(null)
    }
  }
  const action = isActive(run) ? 'cancel' : canRetry(run) ? 'retry' : null
  if (!action) return null
  const { Icon, label, busyLabel } = ACTIONS[action]
  return (
    <Button
      variant="secondary"
      size="sm"
      busy={busy !== null}
      busyLabel={
        <>
          <Icon className="size-3.5" aria-hidden /> {busyLabel}
        </>
      }
      onClick={() => void act(action)}
    >
      <Icon className="size-3.5" aria-hidden /> {label}
    </Button>
  )
}
