/**
 * The access tokens one instance has refused as over their rate limit, by hash, until their
 * window ends (decision 0322, amended). A token's uses are counted in its row, so the limit holds
 * across instances; but a refused use was counted too, and a client flooding with a token over its
 * limit made the server write at the flood's rate. Remembered here, the next requests are answered
 * 429 without the database. Only the database admits a request: this only ever refuses, and only
 * after the database did. Nothing else is kept: a token refused as not valid (made up, revoked, its
 * owner gone) is not a rate limit, and made-up tokens must not fill the memory.
 */

/**
 * Tokens remembered at once. Only a real token can be over its limit, so this is reached only by
 * that many live tokens flooding in one minute; past it, the oldest entries make room (their next
 * request is counted in the database again, as before).
 */
export const MAX_REMEMBERED_TOKENS = 10_000

export class OverLimitTokens {
  /** Token hash → when its window ends (ms since the epoch, this instance's clock). */
  readonly #until = new Map<string, number>()

  constructor(readonly max = MAX_REMEMBERED_TOKENS) {}

  /** How many tokens are remembered now (ended windows included until they make room). */
  get size(): number {
    return this.#until.size
  }

  /** Seconds until the token's window ends when it is remembered as over its limit, else null. */
  waitFor(hash: string, now = Date.now()): number | null {
    const until = this.#until.get(hash)
    if (until === undefined) return null
    if (until > now) return Math.ceil((until - now) / 1000)
    this.#until.delete(hash)
    return null
  }

  /** Remembers a token the database refused, for the `waitMs` left in its window. */
  remember(hash: string, waitMs: number, now = Date.now()): void {
    this.#until.delete(hash)
    if (this.#until.size >= this.max) {
      for (const [key, until] of this.#until) if (until <= now) this.#until.delete(key)
    }
    // Still full: every window is a minute, so the one remembered first ends first.
    const oldest = this.#until.keys().next()
    if (this.#until.size >= this.max && !oldest.done) this.#until.delete(oldest.value)
    this.#until.set(hash, now + waitMs)
  }
}
