import type { Tool, ToolExecutionOptions } from 'ai'
import { describe, expect, it } from 'vitest'
import { guardTool } from './guard-tool.ts'

const options = { toolCallId: 'call', messages: [] } as ToolExecutionOptions

/**
 * What the AI SDK makes of a call (its executeTool): an execute that returns an async iterable
 * streams each result as preliminary, the last also as final; anything else is awaited as final.
 */
async function outputsOf(tool: Tool, input: unknown) {
  const result: unknown = tool.execute!(input, options)
  if (result && typeof result === 'object' && Symbol.asyncIterator in result) {
    const outputs: { type: string; output: unknown }[] = []
    for await (const output of result as AsyncIterable<unknown>) outputs.push({ type: 'preliminary', output })
    return [...outputs, { type: 'final', output: outputs.at(-1)?.output }]
  }
  return [{ type: 'final', output: await result }]
}

describe('guardTool', () => {
  const streaming: Tool = {
    inputSchema: {} as never,
    execute: async function* () {
      yield { building: true }
      yield { ok: true }
    },
  }
  const once: Tool = { inputSchema: {} as never, execute: async () => ({ ok: true }) }

  it("keeps a streaming tool's preliminary results streaming", async () => {
    expect(
      await outputsOf(
        guardTool(streaming, () => undefined),
        {},
      ),
    ).toEqual([
      { type: 'preliminary', output: { building: true } },
      { type: 'preliminary', output: { ok: true } },
      { type: 'final', output: { ok: true } },
    ])
  })

  it('keeps a tool that answers once answering once', async () => {
    expect(
      await outputsOf(
        guardTool(once, async () => undefined),
        {},
      ),
    ).toEqual([{ type: 'final', output: { ok: true } }])
  })

  it('answers with the refusal and never runs the tool', async () => {
    let ran = 0
    const counted: Tool = {
      inputSchema: {} as never,
      execute: async function* () {
        ran++
        yield { ok: true }
      },
    }
    const refusal = { ok: false, error: 'no longer a member' }
    expect(
      (
        await outputsOf(
          guardTool(counted, async () => refusal),
          {},
        )
      ).at(-1),
    ).toEqual({
      type: 'final',
      output: refusal,
    })
    expect(
      (
        await outputsOf(
          guardTool(once, () => refusal),
          {},
        )
      ).at(-1)?.output,
    ).toEqual(refusal)
    expect(ran).toBe(0)
  })
})
