/**
 * One stream of a command as the client keeps and streams it, within the byte cap the server asks
 * for (`maxOutputBytes`, never more than MAX_OUTPUT_BYTES): the reply holds all of it, or its
 * first and last bytes with a marker between that fits inside the cap, so the server keeps the
 * text whole; streamed chunks stop at the cap with a marker. A command that prints without end
 * then costs its connection at most the cap, not its whole output.
 */
import { StringDecoder } from 'node:string_decoder'
import { FirstBytes, LatestBytes } from '../../lib/stream-ends.ts'
import { MAX_OUTPUT_BYTES, notStreamedMarker, type OutputParams } from '../protocol.ts'

/** The marker's room, with a few bytes for a character cut in two on either side of it. */
const MARKER_ROOM = 96

export class StreamOutput {
  private readonly cap: number
  private readonly side: number
  private readonly head: FirstBytes
  private readonly tail: LatestBytes
  private total = 0
  private streamed = 0
  private cut = false
  private readonly decoder = new StringDecoder('utf8')

  constructor(
    cap: number | undefined,
    private readonly stream: OutputParams['stream'],
    private readonly send: (stream: OutputParams['stream'], text: string) => void,
  ) {
    this.cap = Math.max(MARKER_ROOM * 2, Math.min(MAX_OUTPUT_BYTES, cap ?? MAX_OUTPUT_BYTES))
    this.side = Math.floor((this.cap - MARKER_ROOM) / 2)
    this.head = new FirstBytes(this.cap)
    this.tail = new LatestBytes(this.side)
  }

  push(chunk: Buffer) {
    this.total += chunk.length
    this.forward(chunk)
    // The head holds the first `cap` bytes (all of the output while it fits), the tail the latest.
    this.head.push(chunk)
    this.tail.push(chunk)
  }

  /** How many bytes the stream printed in all, kept or not. */
  get printed(): number {
    return this.total
  }

  /** The kept text: whole when it fits the cap, else its ends around a marker, in the cap. */
  text(): string {
    const head = this.head.buffer()
    if (this.total <= this.cap) return head.toString('utf8')
    const tail = this.tail.buffer()
    const omitted = this.total - 2 * this.side
    return (
      head.subarray(0, this.side).toString('utf8') +
      `\n[… ${omitted} bytes of output omitted …]\n` +
      tail.subarray(tail.length - this.side).toString('utf8')
    )
  }

  /** Streams the chunk while the cap allows, then says once that the rest is not streamed. */
  private forward(chunk: Buffer) {
    if (this.cut) return
    const part = chunk.subarray(0, this.cap - this.streamed)
    this.streamed += part.length
    const text = this.decoder.write(part)
    if (text) this.send(this.stream, text)
    if (part.length === chunk.length) return
    this.cut = true
    this.send(this.stream, this.decoder.end() + notStreamedMarker(this.cap))
  }
}

/** How long streamed output is gathered before it is sent, at most. */
export const GATHER_MS = 50
/** How much of a stream is gathered before it is sent at once. */
const GATHER_CHARS = 64 * 1024

type Send = (stream: OutputParams['stream'], text: string) => void

/**
 * Streamed output gathered for up to {@link GATHER_MS} (or 64 K characters of a stream) before it
 * is sent. The pipe's reader gets a chunk for each write a command makes: a shell loop of `echo`s
 * gave ten thousand a second, each one message, and the server charges every message as 2 KiB more
 * than its bytes (decision 0427), so such output was paced and the command's reply waited behind
 * it. Gathered, a command's output is at most some forty messages a second. `flush()` sends what
 * is gathered at once: before the reply, which must come after all of it.
 */
export function gatherOutput(send: Send, everyMs: number = GATHER_MS): { push: Send; flush(): void } {
  const gathered = { stdout: '', stderr: '' }
  let timer: NodeJS.Timeout | undefined
  const flush = () => {
    clearTimeout(timer)
    timer = undefined
    for (const stream of ['stdout', 'stderr'] as const) {
      if (gathered[stream]) send(stream, gathered[stream])
      gathered[stream] = ''
    }
  }
  return {
    push(stream, text) {
      gathered[stream] += text
      if (gathered[stream].length >= GATHER_CHARS) flush()
      else timer ??= setTimeout(flush, everyMs)
    },
    flush,
  }
}
