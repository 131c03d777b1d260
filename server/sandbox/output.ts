/**
 * Per-stream output capture with a hard cap. Code that prints 10 MB must not fill the server's
 * memory or the model's context: we keep the first `limit` bytes, keep draining the pipe (so the
 * child never blocks on a full pipe), and say plainly how much was dropped.
 */
import type { Readable } from 'node:stream'

export const DEFAULT_OUTPUT_LIMIT = 64 * 1024

export class CappedOutput {
  private chunks: Buffer[] = []
  private kept = 0
  private dropped = 0

  constructor(private readonly limit = DEFAULT_OUTPUT_LIMIT) {}

  push(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    const room = this.limit - this.kept
    if (room > 0) {
      const part = buf.length <= room ? buf : buf.subarray(0, room)
      this.chunks.push(part)
      this.kept += part.length
    }
    this.dropped += Math.max(0, buf.length - Math.max(room, 0))
  }

  /** Collects everything a stream emits. */
  drain(stream: Readable | null | undefined): void {
    stream?.on('data', (chunk: Buffer) => this.push(chunk))
  }

  get truncated(): boolean {
    return this.dropped > 0
  }

  toString(): string {
    const text = Buffer.concat(this.chunks).toString('utf8')
    return this.dropped > 0 ? `${text}\n… truncated (${this.dropped} more bytes not shown)` : text
  }
}
