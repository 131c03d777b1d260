/**
 * The redactor's matcher: every hidden value at once, in one pass over the text (an Aho–Corasick
 * automaton), so a text streamed in chunks is redacted as it passes without being held whole. At
 * each position the longest value starting there is replaced, leftmost first, and no replacement
 * overlaps another or is searched again: the same text gives the same output however it is cut.
 *
 * Bounds, whatever a tenant sends: each character is read once, and the text held back between
 * chunks (the start of a value that may still complete) is shorter than the longest value.
 * Reporting the values that end at a character costs one step per such value, so a text costs at
 * most its length times the number of hidden values (a header's four forms, at most 20 headers).
 */

/** Redacts a text that arrives in pieces: what each piece lets it emit now, the rest at the end. */
export type StreamRedactor = {
  /** The next piece of text; answers the redacted text that can no longer be part of a value. */
  push: (text: string) => string
  /** No more text: answers what was held back, redacted. */
  end: () => string
  /** Characters held back now (the start of a value that may still complete). */
  held: () => number
}

const ROOT = 0
const NONE = -1

/** One hidden value: its text and what is shown in its place. */
export type HiddenForm = { value: string; shown: string }

/**
 * The values compiled once into a trie of their characters (UTF-16 code units), with each node's
 * failure link (the longest proper suffix of its text that is also a node) and its dictionary link
 * (the longest proper suffix that is a whole value).
 */
export class HiddenMatcher {
  private readonly firstChild: Int32Array
  private readonly nextSibling: Int32Array
  private readonly char: Int32Array
  private readonly fail: Int32Array
  private readonly dict: Int32Array
  private readonly depth: Int32Array
  /** Index into `shown` of the value ending at a node, or NONE. */
  private readonly ends: Int32Array
  /** The root's children by character, since every miss comes back to it. */
  private readonly rootChild = new Map<number, number>()
  private readonly shown: string[]
  /** The longest value's length. */
  readonly longest: number

  /** `forms`: distinct non-empty values, the first of each kept. */
  constructor(forms: HiddenForm[]) {
    const size = 1 + forms.reduce((n, f) => n + f.value.length, 0)
    this.firstChild = new Int32Array(size).fill(NONE)
    this.nextSibling = new Int32Array(size).fill(NONE)
    this.char = new Int32Array(size)
    this.fail = new Int32Array(size)
    this.dict = new Int32Array(size).fill(NONE)
    this.depth = new Int32Array(size)
    this.ends = new Int32Array(size).fill(NONE)
    this.shown = forms.map((f) => f.shown)
    this.longest = Math.max(0, ...forms.map((f) => f.value.length))
    let nodes = 1
    forms.forEach(({ value }, index) => {
      let node = ROOT
      for (let k = 0; k < value.length; k++) {
        const c = value.charCodeAt(k)
        let next = this.child(node, c)
        if (next === NONE) {
          next = nodes++
          this.char[next] = c
          this.depth[next] = this.depth[node]! + 1
          this.nextSibling[next] = this.firstChild[node]!
          this.firstChild[node] = next
          if (node === ROOT) this.rootChild.set(c, next)
        }
        node = next
      }
      if (this.ends[node] === NONE) this.ends[node] = index
    })
    this.link(nodes)
  }

  /** Failure and dictionary links, breadth first: a node's come from its parent's. */
  private link(nodes: number) {
    const queue = new Int32Array(nodes)
    let head = 0
    let tail = 0
    for (let c = this.firstChild[ROOT]!; c !== NONE; c = this.nextSibling[c]!) queue[tail++] = c
    while (head < tail) {
      const node = queue[head++]!
      for (let c = this.firstChild[node]!; c !== NONE; c = this.nextSibling[c]!) {
        const ch = this.char[c]!
        let f = this.fail[node]!
        while (f !== ROOT && this.child(f, ch) === NONE) f = this.fail[f]!
        const target = this.child(f, ch)
        this.fail[c] = target === NONE ? ROOT : target
        const suffix = this.fail[c]!
        this.dict[c] = this.ends[suffix] !== NONE ? suffix : this.dict[suffix]!
        queue[tail++] = c
      }
    }
  }

  private child(node: number, c: number): number {
    if (node === ROOT) return this.rootChild.get(c) ?? NONE
    for (let k = this.firstChild[node]!; k !== NONE; k = this.nextSibling[k]!)
      if (this.char[k] === c) return k
    return NONE
  }

  /** `text` redacted whole. */
  redact(text: string): string {
    const stream = this.stream()
    return stream.push(text) + stream.end()
  }

  /**
   * A redactor for one text arriving in pieces. It reads each character once and keeps, for every
   * position from the first undecided one (`next`), the longest value found starting there.
   * A position is decided once no value starting at it can still grow: it lies before the start of
   * the longest text read so far that begins a value (`state`), or `state` cannot grow at all.
   */
  stream(): StreamRedactor {
    const ring = this.longest + 1
    // The longest value found starting at a position (length, which), valid when `at` names it.
    const at = new Float64Array(ring).fill(-1)
    const length = new Int32Array(ring)
    const which = new Int32Array(ring)
    /** The text from position `base` on (held back, then the piece being read). */
    let text = ''
    let base = 0
    /** The first position not yet decided; everything before it is emitted or about to be. */
    let next = 0
    let state = ROOT
    let out = ''
    /** Where the text not yet copied to `out` starts (a position). */
    let copied = 0

    const decide = (upTo: number) => {
      while (next < upTo) {
        const slot = next % ring
        if (at[slot] === next) {
          out += text.slice(copied - base, next - base) + this.shown[which[slot]!]
          next += length[slot]!
          copied = next
        } else next++
      }
    }

    const read = (piece: string) => {
      text = text.slice(next - base) + piece
      out = ''
      base = copied = next
      for (let k = 0; k < piece.length; k++) {
        const i = base + text.length - piece.length + k
        const c = piece.charCodeAt(k)
        let node = state
        while (node !== ROOT && this.child(node, c) === NONE) node = this.fail[node]!
        state = Math.max(this.child(node, c), ROOT)
        // Every value ending here: the longest so far for its start.
        for (let v = this.ends[state] !== NONE ? state : this.dict[state]!; v !== NONE; v = this.dict[v]!) {
          const start = i - this.depth[v]! + 1
          const slot = start % ring
          at[slot] = start
          length[slot] = this.depth[v]!
          which[slot] = this.ends[v]!
        }
        for (;;) {
          const alive = i - this.depth[state]! + 1
          // A node without children is a whole value that cannot grow: its start is decided too.
          decide(state !== ROOT && this.firstChild[state] === NONE ? alive + 1 : alive)
          if (next <= alive || next > i) break
          // A replacement ended inside the live text: only what follows it may start a value.
          while (this.depth[state]! > i - next + 1) state = this.fail[state]!
        }
        if (next > i) state = ROOT
      }
    }

    return {
      push(piece) {
        read(piece)
        return out + text.slice(copied - base, next - base)
      },
      end() {
        read('')
        decide(base + text.length)
        const emitted = out + text.slice(copied - base, next - base)
        text = ''
        base = next
        state = ROOT
        return emitted
      },
      held: () => base + text.length - next,
    }
  }
}

const HIGH_SURROGATE = /[\uD800-\uDBFF]$/

/**
 * `source` (UTF-8) with `redactor` applied as it streams: each chunk is decoded (a character split
 * across chunks waits for its end), and what the redactor can emit is passed on at once.
 */
export function redactByteStream(
  source: ReadableStream<Uint8Array>,
  redactor: StreamRedactor,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  // A character outside the basic plane is two code units: never encode half of one.
  let carry = ''
  const emit = (text: string, controller: TransformStreamDefaultController<Uint8Array>, last = false) => {
    let whole = carry + text
    carry = !last && HIGH_SURROGATE.test(whole) ? whole.slice(-1) : ''
    if (carry) whole = whole.slice(0, -1)
    if (whole) controller.enqueue(encoder.encode(whole))
  }
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        emit(redactor.push(decoder.decode(chunk, { stream: true })), controller)
      },
      flush(controller) {
        emit(redactor.push(decoder.decode()) + redactor.end(), controller, true)
      },
    }),
  )
}
