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
