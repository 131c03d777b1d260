import { describe, expect, it } from 'vitest'
import { OutputCollector } from './output.ts'

const redact = (text: string) => text.replaceAll('s3cret', '••••')

describe('the latest output of a running command', () => {
  it('is the end of what arrived so far, redacted', () => {
    const out = new OutputCollector(1024)
    out.push(Buffer.from('line one\n'))
    out.push(Buffer.from('token s3cret\n'))
    expect(out.latest(100, redact)).toBe('line one\ntoken ••••\n')
    expect(out.latest(11, redact)).toBe('token ••••\n')
  })

  it('comes from the kept tail once the middle of a long output was dropped', () => {
    const out = new OutputCollector(64)
    for (let i = 0; i < 2000; i++) out.push(Buffer.from(`row ${i}\n`))
    expect(out.latest(18, redact)).toBe('row 1998\nrow 1999\n')
  })

  it('redacts a secret cut by the requested length before cutting', () => {
    const out = new OutputCollector(1024)
    out.push(Buffer.from('key=s3cret'))
    expect(out.latest(3, redact)).toBe('•••')
  })
})

describe('a command printing short lines without end', () => {
  it('is collected without copying what was kept for each write', () => {
    // A member's command may ask for up to 10 MB of output a stream, kept on the server's event
    // loop. A loop of `printf`s reaches it as one small chunk a write; shifting the oldest chunk off
    // a tail of half a million (2 MB here) moved all the others each time, far past the test's
    // time limit.
    const cap = 2048 * 1024
    const out = new OutputCollector(cap)
    const line = Buffer.from('a\n')
    for (let i = 0; i < cap; i++) out.push(line)
    const { text, truncated } = out.text((t) => t)
    expect(truncated).toBe(true)
    const [head, omitted, tail] = text.split(/\n\[… (\d+) bytes of output omitted …\]\n/)
    expect(head).toBe('a\n'.repeat(cap / 4))
    expect(tail).toBe('a\n'.repeat(cap / 4))
    expect(Number(omitted)).toBe(cap)
  })
})
