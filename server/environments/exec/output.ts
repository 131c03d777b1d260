/**
 * Collects one output stream of a command in bounded memory: the first and the last part are kept
 * and whatever lies between is replaced by a visible marker, never summarised. A little more than
 * the cap is kept on each side so that a secret straddling the cut is still redacted whole before
 * the text is trimmed.
 */
import { FirstBytes, LatestBytes } from '../../lib/stream-ends.ts'

const SLACK = 4096

export class OutputCollector {
  private readonly head: FirstBytes
  private readonly tail: LatestBytes
  total = 0

  constructor(private readonly capBytes: number) {
    this.head = new FirstBytes(this.headLimit())
    this.tail = new LatestBytes(this.tailLimit())
  }

  push(chunk: Buffer) {
    this.total += chunk.length
    const rest = this.head.push(chunk)
    if (rest.length > 0) this.tail.push(rest)
  }

  /** The text, redacted, with a marker where bytes were left out. */
  text(redact: (text: string) => string): { text: string; truncated: boolean } {
    const headBuffer = this.head.buffer()
    if (this.total <= this.capBytes) {
      const whole = Buffer.concat([headBuffer, this.tail.buffer()])
      return { text: redact(whole.toString('utf8')), truncated: false }
    }
    const headText = redact(headBuffer.toString('utf8'))
    const tailBuffer = this.tail.buffer()
    const tailText = redact(
      tailBuffer.subarray(Math.max(0, tailBuffer.length - this.tailLimit())).toString('utf8'),
    )
    const keepHead = headText.slice(0, Math.floor(this.capBytes / 2))
    const keepTail = tailText.slice(-Math.floor(this.capBytes / 2))
    const omitted = this.total - Buffer.byteLength(keepHead) - Buffer.byteLength(keepTail)
    return { text: `${keepHead}\n[… ${omitted} bytes of output omitted …]\n${keepTail}`, truncated: true }
  }

  /**
   * The last `chars` characters received so far, redacted: what a progress view shows while the
   * command still runs. A little more is decoded first so a secret at the cut is redacted whole.
   */
  latest(chars: number, redact: (text: string) => string): string {
    // Nothing was dropped between head and tail yet: they are one stretch of output.
    const whole = this.total === this.head.length + this.tail.length
    const bytes = whole ? Buffer.concat([this.head.buffer(), this.tail.buffer()]) : this.tail.buffer()
    const from = Math.max(0, bytes.length - chars * 4 - SLACK)
    return redact(bytes.subarray(from).toString('utf8')).slice(-chars)
  }

  private headLimit = () => Math.floor(this.capBytes / 2) + SLACK
  private tailLimit = () => Math.floor(this.capBytes / 2) + SLACK
}
