import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useRevalidator } from 'react-router'
import { isActive, RUN_PAGE_SIZE, type RunLike } from './types.ts'

/** Poll fast while a run is queued or running (it "updates live"), slowly otherwise. */
const ACTIVE_POLL_MS = 2_000
const IDLE_POLL_MS = 15_000

async function fetchRuns(jobId: string, before?: string): Promise<RunLike[]> {
  const query = new URLSearchParams({ limit: String(RUN_PAGE_SIZE), ...(before ? { before } : {}) })
  const res = await fetch(`/_agent-native/jobs/${encodeURIComponent(jobId)}/runs?${query}`, {
    headers: { accept: 'application/json' },
  })
  const body = (await res.json().catch(() => null)) as {
    runs?: RunLike[]
    error?: { message: string }
  } | null
  if (!res.ok || !body?.runs) throw new Error(body?.error?.message ?? `The server answered ${res.status}`)
  return body.runs
}

/** What a look at the newest runs can change on the page: which runs exist and how they stand. */
const signature = (runs: readonly RunLike[]) =>
  runs.map((run) => `${run.id}:${run.status}:${run.deniedCommands}`).join(',')

/**
 * A job's run history that stays current together with the rest of the job page. `initial` is
 * the loader's newest page; a light look at the newest runs runs on a timer (only while the tab is
 * visible, every 2 s while a run is queued or running) and, when anything changed, the page's
 * loader runs again, so the status card (last run, status, suspension) and the rows always come
 * from one answer. A failed look is shown beside the history; the page stays as it was.
 * Older pages load on demand.
 */
export function useRunHistory(jobId: string, initial: RunLike[]) {
  const [older, setOlder] = useState<RunLike[]>([])
  // Whether a page older than the last one loaded exists (null: none loaded, the newest page says).
  const [olderMore, setOlderMore] = useState<boolean | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [loadingOlder, setLoadingOlder] = useState(false)
  const latest = useRef(0)
  const revalidator = useRevalidator()
  // Kept in refs so `refresh` (and the polling timer built on it) stays stable across renders.
  const revalidate = useRef(revalidator)
  const shownNewest = useRef(initial)
  useEffect(() => {
    revalidate.current = revalidator
    shownNewest.current = initial
  })

  const refresh = useCallback(async () => {
    const request = ++latest.current
    try {
      const runs = await fetchRuns(jobId)
      if (request !== latest.current) return
      setError(null)
      // A revalidation already under way is restarted, so it answers with what was just seen.
      if (signature(runs) !== signature(shownNewest.current)) await revalidate.current.revalidate()
    } catch (err) {
      if (request === latest.current) setError((err as Error).message)
    }
  }, [jobId])

  const active = initial.some(isActive)
  useEffect(() => {
    const id = setInterval(
      () => {
        if (document.visibilityState === 'visible') void refresh()
      },
      active ? ACTIVE_POLL_MS : IDLE_POLL_MS,
    )
    return () => clearInterval(id)
  }, [active, refresh])

  const shown = useMemo(
    () => [...initial, ...older.filter((run) => !initial.some((n) => n.id === run.id))],
    [initial, older],
  )

  const loadOlder = useCallback(async () => {
    const last = shown.at(-1)
    if (!last) return
    setLoadingOlder(true)
    try {
      const runs = await fetchRuns(jobId, last.id)
      setOlder((o) => [...o, ...runs])
      setOlderMore(runs.length >= RUN_PAGE_SIZE)
      setError(null)
    } catch (err) {
      setError((err as Error).message)
    } finally {
      setLoadingOlder(false)
    }
  }, [jobId, shown])

  const hasMore = olderMore ?? initial.length >= RUN_PAGE_SIZE
  return { runs: shown, refresh, loadOlder, hasMore, loadingOlder, error }
}
