/**
 * One instance's memory of what it has refused and until when: a key (a token's hash, a client's
 * address) and the moment its refusal ends. It lets a limit counted in the database answer the
 * next requests of a refused key without a query. It only ever refuses, and only what its owner
 * told it to: forgetting a key means that key's next request goes to the database again.
 *
 * Bounded, since what fills it is driven from outside. When full, ended refusals make room first;
 * if none has ended, a live one chosen at random does. Not the oldest: a client holding one key
 * more than the memory holds could send each request from the key it knows was dropped (the one
 * remembered first, in a round), and every request would then miss; chosen at random, it cannot
 * tell which one is gone.
 */
export class RefusedUntil {
  /** Key → when its refusal ends (ms since the epoch, this instance's clock). */
  readonly #until = new Map<string, number>()

  /** @param max keys held at once */
  constructor(readonly max: number) {}

  /** How many keys are held now (ended refusals included until they make room). */
  get size(): number {
    return this.#until.size
  }

  /** Seconds until the key's refusal ends when it is held, else null (an ended one is dropped). */
  waitFor(key: string, now = Date.now()): number | null {
    const until = this.#until.get(key)
    if (until === undefined) return null
    if (until > now) return Math.ceil((until - now) / 1000)
    this.#until.delete(key)
    return null
  }

  /** Refuses `key` for the next `waitMs`. */
  remember(key: string, waitMs: number, now = Date.now()): void {
    this.#until.delete(key)
    if (this.#until.size >= this.max) {
      for (const [held, until] of this.#until) if (until <= now) this.#until.delete(held)
    }
    const dropped = this.#until.size >= this.max ? this.#randomKey() : undefined
    if (dropped !== undefined) this.#until.delete(dropped)
    this.#until.set(key, now + waitMs)
  }

  #randomKey(): string | undefined {
    let skip = Math.floor(Math.random() * this.#until.size)
    for (const key of this.#until.keys()) if (skip-- === 0) return key
    return undefined
  }
}
