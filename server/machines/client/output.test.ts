import { afterEach, describe, expect, it, vi } from 'vitest'
import { MAX_OUTPUT_BYTES } from '../protocol.ts'
import { GATHER_MS, gatherOutput, StreamOutput } from './output.ts'

function collect(cap: number, chunks: string[]) {
  const sent: string[] = []
  const out = new StreamOutput(cap, 'stdout', (_stream, text) => sent.push(text))
  for (const chunk of chunks) out.push(Buffer.from(chunk, 'utf8'))
  return { text: out.text(), streamed: sent.join('') }
}

describe('a stream as the client keeps it', () => {
  it('keeps and streams all of output that fits the cap, with no marker', () => {
    const { text, streamed } = collect(1000, ['a'.repeat(600), 'b'.repeat(400)])
    expect(text).toBe('a'.repeat(600) + 'b'.repeat(400))
    expect(streamed).toBe(text)
  })

  it('keeps the ends of longer output around a marker, all within the cap, cut characters and all', () => {
    const chunks = Array.from({ length: 50 }, (_, i) => `${i}:${'é€😀'.repeat(97)}\n`)
    const { text, streamed } = collect(4096, chunks)
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096)
    expect(text.startsWith(chunks[0]!.slice(0, 100))).toBe(true)
    expect(text.endsWith(chunks[49]!.slice(-100))).toBe(true)
    const total = chunks.reduce((n, c) => n + Buffer.byteLength(c), 0)
    const omitted = Number(text.match(/\n\[… (\d+) bytes of output omitted …\]\n/)![1])
    expect(omitted).toBe(total - 2 * Math.floor((4096 - 96) / 2))
    expect(streamed.startsWith(chunks.slice(0, 3).join(''))).toBe(true)
    expect(streamed.endsWith('\n[… output past 4096 bytes not streamed …]\n')).toBe(true)
    expect(Buffer.byteLength(streamed)).toBeLessThanOrEqual(4096 + 64)
  })

  it('never keeps more than MAX_OUTPUT_BYTES, whatever the server asks', () => {
    const { text } = collect(
      64 * 1024 * 1024,
      Array.from({ length: 40 }, () => 'x'.repeat(64 * 1024)),
    )
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024 * 1024)
  })

  it('keeps the ends of two megabytes printed a line of two bytes at a time, without copying what it kept for each write', () => {
    // A shell loop of short `printf`s reaches the client as one small chunk a write. Joining the
    // kept head on every chunk copied it all again each time, and shifting the oldest chunk off a
    // tail of half a million moved all the others: hundreds of GB of copying for this output, far
    // past the test's time limit. Kept as chunks and dropped in batches, it is one join when read.
    const line = Buffer.from('a\n')
    const lines = (2 * MAX_OUTPUT_BYTES) / line.length
    const out = new StreamOutput(MAX_OUTPUT_BYTES, 'stdout', () => {})
    for (let i = 0; i < lines; i++) out.push(line)
    const [head, omitted, tail] = out.text().split(/\n\[… (\d+) bytes of output omitted …\]\n/)
    expect(out.printed).toBe(2 * MAX_OUTPUT_BYTES)
    const side = Math.floor((MAX_OUTPUT_BYTES - 96) / 2)
    expect(Number(omitted)).toBe(2 * MAX_OUTPUT_BYTES - 2 * side)
    expect(head).toBe('a\n'.repeat(side / 2))
    expect(tail).toBe('a\n'.repeat(side / 2))
  })
})

describe('streamed output as the client sends it', () => {
  afterEach(() => vi.useRealTimers())

  function gathering() {
    vi.useFakeTimers()
    const sent: string[] = []
    const gathered = gatherOutput((stream, text) => sent.push(`${stream}:${text}`))
    return { sent, gathered }
  }

  it('sends a command printing line by line as one message a stream every interval, not one a line', () => {
    const { sent, gathered } = gathering()
    for (let i = 0; i < 10_000; i++) gathered.push('stdout', `${i}\n`)
    gathered.push('stderr', 'warning\n')
    expect(sent).toEqual([])
    vi.advanceTimersByTime(GATHER_MS)
    expect(sent).toHaveLength(2)
    expect(sent[0]).toBe(`stdout:${Array.from({ length: 10_000 }, (_, i) => `${i}\n`).join('')}`)
    expect(sent[1]).toBe('stderr:warning\n')
    gathered.push('stdout', 'later\n')
    vi.advanceTimersByTime(GATHER_MS)
    expect(sent.at(-1)).toBe('stdout:later\n')
  })

  it('sends a large stretch at once, and what is gathered when asked (before the reply)', () => {
    const { sent, gathered } = gathering()
    gathered.push('stdout', 'x'.repeat(64 * 1024))
    expect(sent).toEqual([`stdout:${'x'.repeat(64 * 1024)}`])
    gathered.push('stderr', 'last words\n')
    gathered.flush()
    expect(sent.at(-1)).toBe('stderr:last words\n')
    vi.advanceTimersByTime(GATHER_MS)
    expect(sent).toHaveLength(2)
  })
})
