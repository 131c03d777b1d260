import { useEffect, useState } from 'react'
import { useFetchers, useRevalidator } from 'react-router'
import type { BootstrapView } from './bootstrap-steps.tsx'

/** While a build runs (or a command that may start one is on its way): read its state this often. */
const LIVE_MS = 1_000
/** Otherwise, to notice a build the agent, a job run or another person starts. */
const IDLE_MS = 10_000

type Live = {
  record: BootstrapView | null
  /** Why the last read failed (the last state read stays shown); null when it worked. */
  error: string | null
  /** A command was sent from this page and has not answered yet (it may be building first). */
  waiting: boolean
}

type Read = { bootstrap?: BootstrapView | null; error?: { message: string } } | null

/**
 * An environment's bootstrap, kept current: the page's loader gives the first state, then the
 * recorded one is read from `GET …/environments/<name>/bootstrap` (recorded wherever the build
 * runs, so this works when another instance builds it). When a build ends, the page's data is
 * reloaded so its files and status follow.
 */
export function useLiveBootstrap(initial: BootstrapView | null, name: string, scope: string): Live {
  // A read belongs to the loader state it followed: newer loader data replaces it.
  const [polled, setPolled] = useState<{ after: BootstrapView | null; record: BootstrapView | null }>()
  const [error, setError] = useState<string | null>(null)
  const { revalidate } = useRevalidator()
  const waiting = useFetchers().some((f) => f.state !== 'idle' && f.formData?.get('intent') === 'run')
  const record = polled && polled.after === initial ? polled.record : initial
  const running = record?.status === 'running'

  useEffect(() => {
    const url = `/_agent-native/environments/${encodeURIComponent(name)}/bootstrap?${new URLSearchParams({ scope })}`
    let stopped = false
    const read = async () => {
      if (document.visibilityState !== 'visible') return
      try {
        const res = await fetch(url, { headers: { accept: 'application/json' } })
        const body = (await res.json().catch(() => null)) as Read
        if (stopped) return
        if (!res.ok || !body || body.bootstrap === undefined) {
          setError(body?.error?.message ?? `the server answered ${res.status}`)
          return
        }
        setError(null)
        setPolled({ after: initial, record: body.bootstrap })
        // The build ended: the files, size and status on the page changed with it.
        if (running && body.bootstrap?.status !== 'running') void revalidate()
      } catch {
        if (!stopped) setError('the server did not answer')
      }
    }
    const id = setInterval(read, running || waiting ? LIVE_MS : IDLE_MS)
    return () => {
      stopped = true
      clearInterval(id)
    }
  }, [name, scope, initial, running, waiting, revalidate])

  return { record, error, waiting }
}
