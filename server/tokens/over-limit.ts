/**
 * The access tokens one instance has refused as over their rate limit, by hash, until their
 * window ends (decision 0322, amended). A token's uses are counted in its row, so the limit holds
 * across instances; but a refused use was counted too, and a client flooding with a token over its
 * limit made the server write at the flood's rate. Remembered here, the next requests are answered
 * 429 without the database. Only the database admits a request: this only ever refuses, and only
 * after the database did. Nothing else is kept: a token refused as not valid (made up, revoked, its
 * owner gone) is not a rate limit, and made-up tokens must not fill the memory.
 */
import { RefusedUntil } from '../lib/refused-until.ts'

/**
 * Tokens remembered at once. Only a real token can be over its limit, so this is reached only by
 * that many live tokens flooding in one minute; past it, ended windows make room, then one chosen at
 * random (its next request is counted in the database again, as before).
 */
export const MAX_REMEMBERED_TOKENS = 10_000

/** A memory of over-limit tokens, keyed by hash, holding {@link MAX_REMEMBERED_TOKENS} unless told. */
export class OverLimitTokens extends RefusedUntil {
  constructor(max = MAX_REMEMBERED_TOKENS) {
    super(max)
  }
}
