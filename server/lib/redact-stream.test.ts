import { describe, expect, it } from 'vitest'
import { makeRedactor, makeStreamRedactor, type Hidden } from './redact.ts'
import { redactByteStream, type StreamRedactor } from './redact-stream.ts'

/** A seeded generator (mulberry32): a failure names its seed and can be replayed. */
function random(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (below: number) => Math.floor(next() * below)
  return { int, pick: <T>(items: T[]) => items[int(items.length)]! }
}

/** The rule written plainly: at each position the longest value starting there, leftmost first. */
function reference(hidden: Hidden[], text: string): string {
  const shown = new Map<string, string>()
  for (const h of hidden) if (h.value && !shown.has(h.value)) shown.set(h.value, h.shown)
  const values = [...shown.keys()].sort((a, b) => b.length - a.length)
  let out = ''
  for (let p = 0; p < text.length;) {
    const value = values.find((v) => text.startsWith(v, p))
    if (value) {
      out += shown.get(value)
      p += value.length
    } else out += text[p++]
  }
  return out
}

/** `text` pushed in pieces cut at random; checks the hold-back after each piece. */
function streamed(redactor: StreamRedactor, text: string, rand: ReturnType<typeof random>, longest: number) {
  let out = ''
  for (let p = 0; p < text.length;) {
    const size = 1 + rand.int(rand.pick([2, 8, 40]))
    out += redactor.push(text.slice(p, p + size))
    expect(redactor.held()).toBeLessThanOrEqual(Math.max(0, longest - 1))
    p += size
  }
  return out + redactor.end()
}

// Few letters, so values overlap, contain one another and repeat; two of them take several bytes.
const LETTERS = ['a', 'b', 'c', 'é', '😀']

function randomCase(seed: number) {
  const rand = random(seed)
  const word = (max: number) => Array.from({ length: 1 + rand.int(max) }, () => rand.pick(LETTERS)).join('')
  const hidden = Array.from({ length: 1 + rand.int(6) }, (_, k) => ({ value: word(6), shown: `[${k}]` }))
  let text = ''
  while (text.length < rand.int(300)) text += rand.int(3) === 0 ? rand.pick(hidden).value : word(4)
  return { rand, hidden, text, longest: Math.max(...hidden.map((h) => h.value.length)) }
}

describe('a stream redactor', () => {
  it('gives what the one-shot redactor gives for the whole text, however it is cut', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const { rand, hidden, text, longest } = randomCase(seed)
      const whole = makeRedactor(hidden)(text)
      expect(whole, `seed ${seed}`).toBe(reference(hidden, text))
      expect(streamed(makeStreamRedactor(hidden)(), text, rand, longest), `seed ${seed}`).toBe(whole)
    }
  })

  it('hides a value cut anywhere in its bytes, a character split between chunks included', async () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { rand, hidden, text } = randomCase(seed)
      const bytes = new TextEncoder().encode(text)
      const cuts = [0, ...Array.from({ length: rand.int(8) }, () => rand.int(bytes.length)), bytes.length]
      cuts.sort((a, b) => a - b)
      const source = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let k = 1; k < cuts.length; k++) controller.enqueue(bytes.slice(cuts[k - 1], cuts[k]))
          controller.close()
        },
      })
      const out = await new Response(redactByteStream(source, makeStreamRedactor(hidden)())).text()
      expect(out, `seed ${seed}`).toBe(makeRedactor(hidden)(text))
    }
  })

  it('replaces the longest value at the leftmost start, and never searches a placeholder', () => {
    const redact = makeRedactor([
      { value: 'ab', shown: '[ab]' },
      { value: 'bcd', shown: '[bcd]' },
      { value: 'cd', shown: '[cd]' },
      { value: 'head', shown: '[head]' },
      { value: 'xxxxx', shown: '[redacted header X]' },
    ])
    expect(redact('abcd')).toBe('[ab][cd]')
    expect(redact('xxxxx')).toBe('[redacted header X]')
  })

  it('emits at once all it can, holding back only the start of a value that may still complete', () => {
    const redactor = makeStreamRedactor([{ value: 'abcd', shown: '[v]' }])()
    expect(redactor.push('zzz')).toBe('zzz')
    expect(redactor.push('zab')).toBe('z')
    expect(redactor.held()).toBe(2)
    expect(redactor.push('cabc')).toBe('abc')
    expect(redactor.push('dz')).toBe('[v]z')
    expect(redactor.push('ab')).toBe('')
    expect(redactor.end()).toBe('ab')
  })

  it('emits a stream of repeated values as it comes, holding back less than the longest value', () => {
    // 20 values of "a" of about 4 KB each, in a stream of "a"s: every position starts a value.
    const values = Array.from({ length: 20 }, (_, k) => ({
      value: 'a'.repeat(4096 - k * 7),
      shown: `[${k}]`,
    }))
    const longest = 4096
    const redactor = makeStreamRedactor(values)()
    const chunk = 'a'.repeat(4096)
    const chunks = (16 * 1024 * 1024) / chunk.length
    let emitted = 0
    let held = 0
    for (let k = 0; k < chunks; k++) {
      const out = redactor.push(chunk)
      // Only placeholders of the longest value come out: each stands for 4,096 "a"s.
      expect(out).toBe('[0]'.repeat(out.length / 3))
      emitted += out.length / 3
      held = Math.max(held, redactor.held())
    }
    expect(held).toBeLessThan(longest)
    expect(emitted).toBe(chunks)
    expect(redactor.end()).toBe('')
  })

  it('passes on a stream with nothing to hide as it came', () => {
    const redactor = makeStreamRedactor([])()
    expect(redactor.push('abc') + redactor.end()).toBe('abc')
  })
})
