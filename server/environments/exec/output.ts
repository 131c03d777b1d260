/**
 * Collects one output stream of a command in bounded memory: the first and the last part are kept
 * and whatever lies between is replaced by a visible marker, never summarised. A little more than
 * the cap is kept on each side so that a secret straddling the cut is still redacted whole before
 * the text is trimmed.
 */
const SLACK = 4096

export class OutputCollector {
  private head: Buffer[] = []
  private headBytes = 0
  private tail: Buffer[] = []
  private tailBytes = 0
  total = 0

  constructor(private readonly capBytes: number) {}

  push(chunk: Buffer) {
    this.total += chunk.length
    const headRoom = this.headLimit() - this.headBytes
    if (headRoom > 0) {
      const part = chunk.subarray(0, headRoom)
      this.head.push(part)
      this.headBytes += part.length
      chunk = chunk.subarray(part.length)
    }
    if (chunk.length === 0) return
    this.tail.push(chunk)
    this.tailBytes += chunk.length
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= this.tailLimit()) {
      this.tailBytes -= this.tail.shift()!.length
    }
  }

  /** The text, redacted, with a marker where bytes were left out. */
  text(redact: (text: string) => string): { text: string; truncated: boolean } {
    const headText = redact(Buffer.concat(this.head).toString('utf8'))
    if (this.total <= this.capBytes) {
      return { text: redact(Buffer.concat([...this.head, ...this.tail]).toString('utf8')), truncated: false }
    }
    const tailBuffer = Buffer.concat(this.tail)
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
    const whole = this.total === this.headBytes + this.tailBytes
    const bytes = Buffer.concat(whole ? [...this.head, ...this.tail] : this.tail)
    const from = Math.max(0, bytes.length - chars * 4 - SLACK)
    return redact(bytes.subarray(from).toString('utf8')).slice(-chars)
  }

  private headLimit = () => Math.floor(this.capBytes / 2) + SLACK
  private tailLimit = () => Math.floor(this.capBytes / 2) + SLACK
}
