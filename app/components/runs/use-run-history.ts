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

/**
 * A job's run history that stays current: the newest page is re-fetched on a timer (only while
 * the tab is visible), older pages load on demand. `initial` is the loader's first page.
 */
export function useRunHistory(jobId: string, initial: RunLike[]) {
  const [newest, setNewest] = useState(initial)
  const [older, setOlder] = useState<RunLike[]>([])
  const [hasMore, setHasMore] = useState(initial.length >= RUN_PAGE_SIZE)
  const [error, setError] = useState<string | null>(null)
  const [loadingOlder, setLoadingOlder] = useState(false)
  const latest = useRef(0)
  const activeIds = useRef(new Set(initial.filter(isActive).map((run) => run.id)))
  const revalidator = useRevalidator()
  // Kept in a ref so `refresh` (and the polling timer built on it) stays stable across renders.
  const revalidate = useRef(revalidator)
  useEffect(() => {
    revalidate.current = revalidator
  })

  // A fresh loader answer (after a save, or navigating between jobs) replaces what we had.
  const [seen, setSeen] = useState(initial)
  if (seen !== initial) {
    setSeen(initial)
    setNewest(initial)
    setOlder([])
    setHasMore(initial.length >= RUN_PAGE_SIZE)
  }

  const refresh = useCallback(async () => {
    const request = ++latest.current
    try {
      const runs = await fetchRuns(jobId)
      if (request !== latest.current) return
      // A run just finished: the job's own run state (last run, status, suspension) moved too.
      const finished = runs.some((run) => !isActive(run) && activeIds.current.has(run.id))
      activeIds.current = new Set(runs.filter(isActive).map((run) => run.id))
      setNewest(runs)
      if (finished && revalidate.current.state === 'idle') void revalidate.current.revalidate()
      setError(null)
    } catch (err) {
      if (request === latest.current) setError((err as Error).message)
    }
  }, [jobId])

  const active = newest.some(isActive)
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
    () => [...newest, ...older.filter((run) => !newest.some((n) => n.id === run.id))],
    [newest, older],
  )

  const loadOlder = useCallback(async () => {
    const last = shown.at(-1)
    if (!last) return
    setLoadingOlder(true)
    try {
      const runs = await fetchRuns(jobId, last.id)
      setOlder((o) => [...o, ...runs])
      setHasMore(runs.length >= RUN_PAGE_SIZE)
      setError(null)
    } catch (err) {
      setError((err as Error).message)
    } finally {
      setLoadingOlder(false)
    }
  }, [jobId, shown])

  return { runs: shown, refresh, loadOlder, hasMore, loadingOlder, error }
}
