import { DropdownMenu } from 'radix-ui'
import { Copy, Pause, Play, Zap } from 'lucide-react'
import { useEffect } from 'react'
import { useFetcher, useNavigate, useRevalidator } from 'react-router'
import { toast } from 'sonner'
import { SpriteIcon } from '#app/components/ui/icon-sprite.tsx'
import type { ActionData } from '#app/lib/action-errors.ts'
import type { JobRow } from '#app/lib/job-types.ts'
import { useMenuOnFirstUse } from '#app/lib/use-menu-on-first-use.ts'

const ITEM =
  'flex cursor-default items-center gap-2 rounded-md px-2 py-1.5 text-sm outline-none select-none data-[highlighted]:bg-stone-100 dark:data-[highlighted]:bg-stone-800'

/** Queues a run; true when one was queued (the list then shows it, live while it runs). */
async function runNow(job: JobRow): Promise<boolean> {
  const res = await fetch(`/_agent-native/jobs/${encodeURIComponent(job.id)}/run`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: '{}',
  })
  const body = (await res.json().catch(() => null)) as {
    run?: { status: string; reason: string | null }
    error?: { message: string }
  } | null
  if (!res.ok || !body?.run) {
    toast.error(`Could not start ${job.name}: ${body?.error?.message ?? res.status}`)
    return false
  }
  if (body.run.status === 'skipped') toast.warning(`Not run: ${body.run.reason ?? 'skipped'}`)
  else toast.success(`Run of ${job.name} queued`)
  return true
}

const TRIGGER =
  'rounded-md p-1.5 text-stone-600 dark:text-stone-400 hover:bg-stone-100 hover:text-stone-900 dark:hover:bg-stone-800 dark:hover:text-stone-100'

/**
 * A row's actions (keyboard-operable radix menu): run now and pause/resume for those who may edit
 * the job, duplicate for anyone who sees it (the copy is theirs, paused, opened for editing).
 * Until it is first used the row shows only its button: the radix menu (contexts, refs, presence)
 * was half the server render of a 50-row list, and most rows' menus are never opened. The first
 * pointer-down or key press on the button mounts the menu already open.
 */
export function JobRowMenu({ job }: { job: JobRow }) {
  const { used, standIn } = useMenuOnFirstUse()
  if (used) return <RowMenu job={job} />
  return (
    <button aria-label={`Actions for ${job.name}`} className={TRIGGER} {...standIn}>
      <SpriteIcon name="more" className="size-4" />
    </button>
  )
}

function RowMenu({ job }: { job: JobRow }) {
  const fetcher = useFetcher<ActionData>()
  const navigate = useNavigate()
  const { revalidate } = useRevalidator()
  const active = job.enabled && !job.suspendedReason
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (!fetcher.data.ok) toast.error(fetcher.data.error.message)
    else {
      const copy = (fetcher.data.data as { job?: { id: string; name: string } } | undefined)?.job
      if (copy) {
        toast.success(`Made ${copy.name} (paused)`)
        void navigate(`/jobs/${encodeURIComponent(copy.id)}?tab=definition`)
      }
    }
  }, [fetcher.state, fetcher.data, navigate])
  return (
    <DropdownMenu.Root defaultOpen modal={false}>
      <DropdownMenu.Trigger aria-label={`Actions for ${job.name}`} className={TRIGGER}>
        <SpriteIcon name="more" className="size-4" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-40 rounded-lg border border-stone-200 bg-white p-1 shadow-lg dark:border-stone-700 dark:bg-stone-900"
        >
          {job.canEdit ? (
            <>
              <DropdownMenu.Item
                className={ITEM}
                onSelect={() => void runNow(job).then((queued) => (queued ? revalidate() : undefined))}
              >
                <Zap className="size-4" aria-hidden /> Run now
              </DropdownMenu.Item>
              <DropdownMenu.Item
                className={ITEM}
                onSelect={() =>
                  void fetcher.submit(
                    { intent: 'toggle', id: job.id, enabled: String(!active) },
                    { method: 'post' },
                  )
                }
              >
                {active ? <Pause className="size-4" aria-hidden /> : <Play className="size-4" aria-hidden />}
                {active ? 'Pause' : 'Resume'}
              </DropdownMenu.Item>
            </>
          ) : null}
          <DropdownMenu.Item
            className={ITEM}
            onSelect={() => void fetcher.submit({ intent: 'duplicate', id: job.id }, { method: 'post' })}
          >
            <Copy className="size-4" aria-hidden /> Duplicate
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
