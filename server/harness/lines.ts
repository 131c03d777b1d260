/**
 * Splits a byte stream into lines, each byte read once: a line that arrives in many chunks is
 * joined (and decoded) once, at its end, so a long line costs what it weighs, not its square. A line
 * longer than its bound is left out unread: its handler is told once, and reading goes on after its
 * end. Used for a harness CLI's stdout (run.ts) and the model provider's event stream the run's
 * endpoint meters (endpoint.ts). Splitting bytes at `\n` never cuts a UTF-8 character.
 */

/** A line of a CLI's output or a provider's event stream longer than this is left out unread. */
export const HARNESS_LINE_MAX_BYTES = 4 * 1024 * 1024

export type LineHandler = {
  /** A whole line, without its `\n`. Returns true when it changed something. */
  line: (text: string) => boolean
  /** A line passed the bound after `seen` bytes; the rest of it is skipped. Returns as `line`. */
  overLong: (seen: number) => boolean
}

export type LineReader = {
  /** Reads one chunk; true when a handler said something changed. */
  push: (chunk: Uint8Array) => boolean
  /** Reads a last line without its `\n`, if any. */
  end: () => boolean
}

const NEWLINE = 0x0a

export function lineReader(on: LineHandler, max = HARNESS_LINE_MAX_BYTES): LineReader {
  const decoder = new TextDecoder()
  let pending: Uint8Array[] = []
  let pendingBytes = 0
  let skipping = false
  const reset = () => {
    pending = []
    pendingBytes = 0
  }
  const whole = (piece: Uint8Array) =>
    decoder.decode(pending.length === 0 ? piece : Buffer.concat([...pending, piece]))
  const finish = (piece: Uint8Array): boolean => {
    let changed = false
    if (skipping) skipping = false
    else if (pendingBytes + piece.length > max) changed = on.overLong(pendingBytes + piece.length)
    else changed = on.line(whole(piece))
    reset()
    return changed
  }
  return {
    push(chunk) {
      let changed = false
      let start = 0
      for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
        if (finish(chunk.subarray(start, nl))) changed = true
        start = nl + 1
      }
      if (skipping || start === chunk.length) return changed
      const rest = chunk.subarray(start)
      if (pendingBytes + rest.length > max) {
        if (on.overLong(pendingBytes + rest.length)) changed = true
        reset()
        skipping = true
        return changed
      }
      pending.push(rest)
      pendingBytes += rest.length
      return changed
    },
    end() {
      const changed = !skipping && pendingBytes > 0 && finish(new Uint8Array(0))
      skipping = false
      reset()
      return changed
    },
  }
}
