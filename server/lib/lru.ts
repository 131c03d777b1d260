/**
 * A bounded least-recently-used map. Every process-wide cache keyed by something a user can vary
 * (a cron expression, a zone name, a session token) must be one of these: an unbounded Map there
 * is a memory leak an attacker can drive (one entry per distinct string, forever).
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>()

  /** @param ttlMs entries older than this are treated as absent (Infinity: no expiry) */
  constructor(
    readonly maxEntries: number,
    private readonly ttlMs = Infinity,
    private readonly now: () => number = Date.now,
  ) {
    if (!(maxEntries >= 1)) throw new RangeError('maxEntries must be at least 1')
  }

  get size(): number {
    return this.entries.size
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    if (entry.expires <= this.now()) {
      this.entries.delete(key)
      return undefined
    }
    // Map keeps insertion order: re-inserting marks the entry as the most recently used.
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.value
  }

  set(key: K, value: V): this {
    this.entries.delete(key)
    this.entries.set(key, { value, expires: this.ttlMs === Infinity ? Infinity : this.now() + this.ttlMs })
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as K)
    return this
  }

  /** The cached value, else `create(key)` cached (also when it is null or undefined). */
  getOrCreate(key: K, create: (key: K) => V): V {
    const entry = this.entries.get(key)
    if (entry && entry.expires > this.now()) return this.get(key) as V
    const value = create(key)
    this.set(key, value)
    return value
  }

  delete(key: K): boolean {
    return this.entries.delete(key)
  }

  clear(): void {
    this.entries.clear()
  }
}
