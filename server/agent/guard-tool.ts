/**
 * A tool with a check asked before it runs. The AI SDK streams a tool's results when its `execute`
 * returns an async iterable and answers once otherwise, and it tells which by what `execute`
 * returns, synchronously. A guard that awaits its check must therefore keep the tool's kind: an
 * async generator function stays one (its preliminary results still stream), any other `execute`
 * becomes an async function. A tool that streams is declared `async function*`, so its kind shows
 * without calling it (calling it would start its work before the check).
 */
import type { Tool } from 'ai'

type Execute = NonNullable<Tool['execute']>

const streams = (execute: Execute) =>
  (execute as unknown as { [Symbol.toStringTag]?: string })[Symbol.toStringTag] === 'AsyncGeneratorFunction'

/**
 * `tool`, asking `refusal` before each call: what it answers (anything but undefined) is the call's
 * result instead, and the tool does not run.
 */
export function guardTool(tool: Tool, refusal: (input: unknown) => unknown): Tool {
  const execute = tool.execute
  if (!execute) return tool
  if (streams(execute)) {
    return {
      ...tool,
      execute: async function* (input, options) {
        const refused = await refusal(input)
        if (refused !== undefined) {
          yield refused
          return
        }
        yield* execute(input, options) as AsyncIterable<unknown>
      },
    }
  }
  return {
    ...tool,
    execute: async (input, options) => {
      const refused = await refusal(input)
      return refused !== undefined ? refused : execute(input, options)
    },
  }
}
