import { Play } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#app/components/ui/button.tsx'
import type { RunLike } from './types.ts'

/**
 * Queues a manual run (POST /_agent-native/jobs/:id/run). The job's overlap policy applies, so
 * the answer may be a skipped run: the toast says why. With no scheduler alive the run stays
 * queued, and the toast says that too.
 */
export function RunNowButton({ jobId, onQueued }: { jobId: string; onQueued: () => void }) {
  const [busy, setBusy] = useState(false)
  async function runNow() {
    setBusy(true)
    try {
      const res = await fetch(`/_agent-native/jobs/${encodeURIComponent(jobId)}/run`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: '{}',
      })
      const body = (await res.json().catch(() => null)) as {
        run?: RunLike
        notice?: string
        error?: { message: string }
      } | null
      if (!res.ok || !body?.run) throw new Error(body?.error?.message ?? `The server answered ${res.status}`)
      if (body.run.status === 'skipped') toast.warning(`Not run: ${body.run.reason ?? 'skipped'}`)
      else if (body.notice) toast.warning(`Run queued. ${body.notice}`, { duration: 15_000 })
      else toast.success('Run queued: it starts within seconds')
      onQueued()
    } catch (err) {
      toast.error(`Could not start a run: ${(err as Error).message}`)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button
      variant="secondary"
      size="sm"
      busy={busy}
      busyLabel={
        <>
          <Play className="size-3.5" aria-hidden /> Starting…
        </>
      }
      onClick={() => void runNow()}
    >
      <Play className="size-3.5" aria-hidden /> Run now
    </Button>
  )
}
