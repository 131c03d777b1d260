import { Dialog } from 'radix-ui'
import { X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { MessageParts } from '#app/components/chat/message-parts.tsx'
import { Badge } from '#app/components/ui/card.tsx'
import { describeRunStatus } from '#app/lib/job-status.ts'
import { formatExact } from '#app/lib/time.ts'
import { describeTrigger } from './format.ts'
import { isActive, type RunLike, type TranscriptEntry } from './types.ts'

const ROLE_LABEL = { user: 'Instructions', assistant: 'Agent', tool: 'Tool', system: 'System' } as const

type Loaded = { run: RunLike; transcript: TranscriptEntry[] }

/** Loads GET /_agent-native/runs/:id, again every 2 s while the run is still going. */
function useRun(runId: string | null) {
  const [state, setState] = useState<{ id: string; data?: Loaded; error?: string } | null>(null)
  useEffect(() => {
    if (!runId) return
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const load = async () => {
      try {
        const res = await fetch(`/_agent-native/runs/${encodeURIComponent(runId)}`, {
          headers: { accept: 'application/json' },
        })
        const body = (await res.json().catch(() => null)) as (Loaded & { error?: { message: string } }) | null
        if (!res.ok || !body?.run)
          throw new Error(body?.error?.message ?? `The server answered ${res.status}`)
        if (stopped) return
        setState({ id: runId, data: body })
        if (isActive(body.run)) timer = setTimeout(() => void load(), 2_000)
      } catch (err) {
        if (!stopped) setState({ id: runId, error: (err as Error).message })
      }
    }
    void load()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [runId])
  return state?.id === runId ? state : null
}

/** A run's transcript (the prompt, then what the agent did) in a dialog. */
export function TranscriptDialog({
  runId,
  timeZone,
  onClose,
}: {
  runId: string | null
  timeZone: string
  onClose: () => void
}) {
  const state = useRun(runId)
  const run = state?.data?.run
  return (
    <Dialog.Root open={runId !== null} onOpenChange={(open) => (open ? null : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-stone-950/40 backdrop-blur-[1px]" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 flex max-h-[85vh] w-[min(44rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl border border-stone-200 bg-white shadow-xl dark:border-stone-700 dark:bg-stone-900">
          <div className="flex items-start justify-between gap-4 border-b border-stone-200 px-6 py-4 dark:border-stone-800">
            <div>
              <Dialog.Title className="text-lg font-semibold">Run transcript</Dialog.Title>
              <Dialog.Description className="mt-1 flex flex-wrap items-center gap-2 text-sm text-stone-600 dark:text-stone-400">
                {run ? (
                  <>
                    <Badge tone={describeRunStatus(run.status).tone}>
                      {describeRunStatus(run.status).label}
                    </Badge>
                    {describeTrigger(run)} · {run.trigger === 'manual' ? 'requested' : 'slot'}{' '}
                    {formatExact(new Date(run.scheduledFor), { timeZone })}
                  </>
                ) : (
                  'Loading the run…'
                )}
              </Dialog.Description>
            </div>
            <Dialog.Close
              className="rounded p-1 text-stone-500 hover:bg-stone-100 dark:hover:bg-stone-800"
              aria-label="Close"
            >
              <X className="size-4" aria-hidden />
            </Dialog.Close>
          </div>
          <div className="overflow-y-auto px-6 py-4 text-sm" data-testid="transcript">
            {state?.error ? (
              <p role="alert" className="text-red-600">
                Could not load the transcript: {state.error}
              </p>
            ) : !state?.data ? (
              <p className="text-stone-500">Loading…</p>
            ) : (
              <ol className="space-y-4">
                {state.data.transcript.map((message) => (
                  <li key={message.id}>
                    <p className="mb-1 text-xs font-semibold tracking-wide text-stone-500 uppercase">
                      {ROLE_LABEL[message.role]}
                    </p>
                    <MessageParts parts={message.parts} />
                  </li>
                ))}
                {run && isActive(run) ? (
                  <li className="text-stone-500">The run is still going; this updates by itself.</li>
                ) : null}
                {run?.error ? (
                  <li
                    role="alert"
                    className="rounded-md bg-red-50 px-3 py-2 text-red-800 dark:bg-red-950 dark:text-red-300"
                  >
                    {run.error}
                  </li>
                ) : null}
              </ol>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
