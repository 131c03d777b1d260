/**
 * How a harness's own tools read in a transcript (a job run by Claude Code, or `run_harness` in
 * chat): its shell calls with their output, its file edits by path, anything else by name with
 * its result folded under the line. Their parts have the same shape as the agent's
 * (server/harness/adapter.ts), so the run page and the chat show them with the same step.
 */
import { FilePen, Globe, Plug, Search, SquareTerminal, Wrench, type LucideIcon } from 'lucide-react'
import type { ToolView } from './tool-views.tsx'

type Input = { command?: string; file_path?: string; notebook_path?: string; url?: string; pattern?: string }

/** A shell result as the CLI reports it (`{ stdout, stderr }`), or plain text. */
function shellText(output: unknown): string {
  if (typeof output === 'string') return output
  const o = (output ?? {}) as { stdout?: string; stderr?: string }
  return [o.stdout, o.stderr && `--- stderr ---\n${o.stderr}`].filter(Boolean).join('\n')
}

const asText = (output: unknown) => (typeof output === 'string' ? output : JSON.stringify(output, null, 2))

function view(icon: LucideIcon, running: (i: Input) => string, done: (i: Input) => string, body = asText) {
  return {
    icon,
    running,
    done: (_output: unknown, input: Input) => done(input),
    failed: (message: string) => message,
    body: { kind: 'code', of: body },
  } as unknown as ToolView
}

const path = (i: Input) => i.file_path ?? i.notebook_path ?? 'a file'

const HARNESS_VIEWS: Record<string, ToolView> = {
  Bash: view(
    SquareTerminal,
    (i) => `Running ${i.command ?? 'a command'}…`,
    (i) => `Ran ${i.command ?? 'a command'}`,
    shellText,
  ),
  Write: view(
    FilePen,
    (i) => `Writing ${path(i)}…`,
    (i) => `Wrote ${path(i)}`,
  ),
  Edit: view(
    FilePen,
    (i) => `Editing ${path(i)}…`,
    (i) => `Edited ${path(i)}`,
  ),
  MultiEdit: view(
    FilePen,
    (i) => `Editing ${path(i)}…`,
    (i) => `Edited ${path(i)}`,
  ),
  NotebookEdit: view(
    FilePen,
    (i) => `Editing ${path(i)}…`,
    (i) => `Edited ${path(i)}`,
  ),
  Read: view(
    Search,
    (i) => `Reading ${path(i)}…`,
    (i) => `Read ${path(i)}`,
  ),
  Grep: view(
    Search,
    (i) => `Searching for ${i.pattern ?? 'text'}…`,
    (i) => `Searched for ${i.pattern ?? 'text'}`,
  ),
  Glob: view(
    Search,
    (i) => `Listing ${i.pattern ?? 'files'}…`,
    (i) => `Listed ${i.pattern ?? 'files'}`,
  ),
  WebFetch: view(
    Globe,
    (i) => `Fetching ${i.url ?? 'a page'}…`,
    (i) => `Fetched ${i.url ?? 'a page'}`,
  ),
}

/**
 * The view of a harness tool, or undefined when `name` is none. Claude Code names MCP tools
 * `mcp__<server>__<tool>`.
 */
export function harnessToolView(name: string): ToolView | undefined {
  if (HARNESS_VIEWS[name]) return HARNESS_VIEWS[name]
  const mcp = /^mcp__([^_]+(?:_[^_]+)*)__(.+)$/.exec(name)
  if (mcp)
    return view(
      Plug,
      () => `Calling ${mcp[2]} on ${mcp[1]}…`,
      () => `Called ${mcp[2]} on ${mcp[1]}`,
    )
  if (/^[A-Z][A-Za-z]+$/.test(name))
    return view(
      Wrench,
      () => `Using ${name}…`,
      () => `Used ${name}`,
    )
  return undefined
}
