import { useEffect, useState } from 'react'

/** Milliseconds since `start`, ticking every second (for a running run's live duration). */
export function useElapsed(start: string | null, live: boolean): number | null {
  const [now, setNow] = useState<number | null>(null)
  useEffect(() => {
    if (!live) return
    const tick = () => setNow(Date.now())
    tick()
    const id = setInterval(tick, 1_000)
    return () => clearInterval(id)
  }, [live])
  return start && now !== null ? now - Date.parse(start) : null
}
