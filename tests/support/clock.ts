/**
 * A manual clock for scheduler tests: it stands in for the database clock (`sqlNow()` is a
 * literal) and for timers (they fire only when the test moves time). Deterministic, and a
 * ten-minute timeout takes no time at all.
 */
import { sql } from 'drizzle-orm'
import type { Clock } from '#server/scheduler/clock.ts'

type Timer = { id: number; at: number; fn: () => void }

export class ManualClock implements Clock {
  private nowMs: number
  private timers: Timer[] = []
  private nextId = 1

  constructor(start: Date | string) {
    this.nowMs = new Date(start).getTime()
  }

  now(): Date {
    return new Date(this.nowMs)
  }

  sqlNow() {
    return sql`${new Date(this.nowMs).toISOString()}::timestamptz`
  }

  setTimer(fn: () => void, ms: number): () => void {
    const timer = { id: this.nextId++, at: this.nowMs + Math.max(0, ms), fn }
    this.timers.push(timer)
    return () => {
      this.timers = this.timers.filter((t) => t !== timer)
    }
  }

  /** Moves time forward by `ms`, firing due timers in order (and letting their promises settle). */
  async advance(ms: number): Promise<void> {
    await this.set(new Date(this.nowMs + ms))
  }

  /** Moves time to `to` (never backwards), firing due timers in order. */
  async set(to: Date | string): Promise<void> {
    const target = new Date(to).getTime()
    if (target < this.nowMs) throw new Error(`ManualClock cannot go back from ${this.now().toISOString()}`)
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0]
      if (!due) break
      this.timers = this.timers.filter((t) => t !== due)
      this.nowMs = Math.max(this.nowMs, due.at)
      due.fn()
      await settle()
    }
    this.nowMs = target
    await settle()
  }

  /** Timers still waiting (for assertions about what is armed). */
  get pendingTimers(): number {
    return this.timers.length
  }
}

/** Lets pending promise callbacks and I/O callbacks run. */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve))
