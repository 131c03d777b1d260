import { describe, expect, it } from 'vitest'
import { claudeCode } from './claude-code.ts'
import { openCode } from './opencode.ts'
import { HARNESS_MAX_PARTS, HARNESS_PART_MAX_CHARS, HARNESS_TRANSCRIPT_MAX_CHARS } from './transcript.ts'

const assistant = (content: unknown[]) => JSON.stringify({ type: 'assistant', message: { content } })
const size = (parts: unknown[]) => JSON.stringify(parts).length

describe('a harness parser keeps a bounded transcript', () => {
  it('Claude Code: at most HARNESS_MAX_PARTS steps, then a note counting the rest', () => {
    const p = claudeCode.parser()
    for (let i = 0; i < HARNESS_MAX_PARTS + 250; i++) p.push(assistant([{ type: 'text', text: `t${i}` }]))
    const parts = p.parts()
    expect(parts).toHaveLength(HARNESS_MAX_PARTS + 1)
    expect(parts.at(-1)).toEqual({
      type: 'text',
      text: expect.stringMatching(/^\[… 250 more steps of this run left out/),
    })
  })

  it('Claude Code: a huge text and huge results are cut, all of them within the total, redacted', () => {
    const p = claudeCode.parser((t) => t.replaceAll('SECRET', '[redacted]'))
    p.push(assistant([{ type: 'text', text: `SECRET ${'y'.repeat(5_000_000)}` }]))
    for (let i = 0; i < 100; i++) {
      p.push(assistant([{ type: 'tool_use', id: `c${i}`, name: 'Bash', input: { command: 'x' } }]))
      p.push(
        JSON.stringify({
          type: 'user',
          message: {
            content: [{ type: 'tool_result', tool_use_id: `c${i}`, content: 'SECRET'.repeat(20_000) }],
          },
        }),
      )
    }
    const parts = p.parts()
    expect(parts[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^\[redacted\] y+\n\[… \d+ characters left out …\]$/),
    })
    for (const part of parts) expect(size([part])).toBeLessThanOrEqual(HARNESS_PART_MAX_CHARS + 256)
    expect(size(parts)).toBeLessThanOrEqual(HARNESS_TRANSCRIPT_MAX_CHARS + HARNESS_PART_MAX_CHARS)
    expect(JSON.stringify(parts)).not.toContain('SECRET')
    expect(parts.at(-1)).toMatchObject({ text: expect.stringMatching(/more steps? of this run left out/) })
  })

  it('OpenCode: a call left out is counted once, however many events it has', () => {
    const p = openCode.parser()
    const tool = (id: string, status: string) =>
      JSON.stringify({
        type: 'tool_use',
        part: { tool: 'bash', callID: id, state: { status, input: {}, output: 'ok' } },
      })
    for (let i = 0; i < HARNESS_MAX_PARTS; i++)
      p.push(JSON.stringify({ type: 'text', part: { text: `t${i}` } }))
    p.push(tool('late', 'running'))
    p.push(tool('late', 'completed'))
    expect(p.parts().at(-1)).toMatchObject({
      text: expect.stringMatching(/^\[… 1 more step of this run left out/),
    })
  })
})
