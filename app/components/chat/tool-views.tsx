/**
 * How the chat shows each agent tool: its icon, the line it shows while running and when done,
 * an optional body (json, code or markdown, folded under the line), and the approval card for
 * calls that wait for a person. One entry per tool in server/agent/tools/index.ts; the
 * `satisfies` below fails the typecheck when a tool has no entry here.
 */
import type { InferUITools } from 'ai'
import {
  Bot,
  CalendarClock,
  Clock,
  FileCode,
  FileText,
  FilePen,
  FolderTree,
  Globe,
  Play,
  Plug,
  Search,
  Send,
  SquareTerminal,
  type LucideIcon,
} from 'lucide-react'
import { Link } from 'react-router'
import type { BootstrapProgress } from '#server/agent/tools/bootstrap-progress.ts'
import type { AgentToolName, AgentTools } from '#server/agent/tools/index.ts'

type ToolIO = InferUITools<AgentTools>
type Input<N extends AgentToolName> = Partial<ToolIO[N]['input']>
/** What a call ends with; a build's progress on the way is shown by the step (bootstrap-step.tsx). */
type Output<N extends AgentToolName> = Exclude<ToolIO[N]['output'], BootstrapProgress>
/** A failed call, as every tool reports it (server/agent/tool-context.ts). */
type Failure = { ok: false; error: { status: number; message: string } }

/** What the approval card says; the person's answer goes back with their next request. */
export type ApprovalView = {
  title: string
  body: string
  confirm: string
  cancel: string
  /** The action's name in "Not done: … was not confirmed". */
  what: string
}

export type ToolView<N extends AgentToolName = AgentToolName> = {
  icon: LucideIcon
  /** Extra classes for the icon once done (e.g. a colour). */
  tint?: string
  /** The line while the call runs. */
  running: (input: Input<N>) => string
  /** The line (or richer node) once it succeeded. */
  done: (output: Exclude<Output<N>, Failure>, input: Input<N>) => React.ReactNode
  /** The line when the server refused the call; default "<tool> failed: <message>". */
  failed?: (message: string, status: number | undefined, input: Input<N>) => string
  /** Details folded under the line, and how to show them. */
  body?: { kind: 'json' | 'code' | 'markdown' | 'diff'; of: (output: Exclude<Output<N>, Failure>) => string }
  /** For calls that wait for a person: what the card asks. */
  approval?: (input: Input<N>) => ApprovalView
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1)
const VERBS: Record<string, string> = {
  create: 'Creating',
  update: 'Updating',
  list: 'Listing',
  get: 'Reading',
  preview: 'Previewing',
  delete: 'Deleting',
}

const manageJobs: ToolView<'manage-jobs'> = {
  icon: CalendarClock,
  tint: 'text-brand-600',
  failed: (message, status, input) =>
    `Could not ${input.action} the job: ${message}${status ? ` (${status})` : ''}`,
  running: (input) =>
    `${VERBS[input.action ?? ''] ?? 'Working on'} job${input.name ? ` ${input.name}` : 's'}…`,
  done: (output) => {
    if (output.action === 'list') {
      return (
        <details>
          <summary className="cursor-pointer">Looked up jobs: {output.summary}</summary>
          <ul className="mt-1 space-y-0.5 pl-4">
            {output.jobs.map((job) => (
              <li key={job.id}>
                <Link to={job.url} className="font-medium underline-offset-2 hover:underline">
                  {job.name}
                </Link>{' '}
                <span className="text-stone-600 dark:text-stone-400">{lowerFirst(job.description)}</span>
              </li>
            ))}
          </ul>
        </details>
      )
    }
    if (output.action === 'preview') return `Previewed the schedule: ${output.summary}`
    if (output.action === 'delete')
      return (
        <span>
          Deleted job <em>{output.job.name}</em>
        </span>
      )
    return (
      <span>
        {output.action === 'create' ? 'Created' : output.action === 'get' ? 'Read' : 'Updated'} job{' '}
        <Link to={output.job.url} className="font-medium italic underline underline-offset-2">
          {output.job.name}
        </Link>
        , {lowerFirst(output.job.description)}
        {output.job.enabled ? '' : ' (paused)'}
      </span>
    )
  },
  approval: (input) => {
    const target = input.name ?? input.id ?? 'this job'
    return {
      title: `Delete job ${target}?`,
      body: 'This removes the job and its run history.',
      confirm: 'Delete job',
      cancel: 'Keep it',
      what: `${input.action ?? 'delete'} ${input.name ?? ''}`,
    }
  },
}

const RUN_VERBS: Record<string, string> = {
  run: 'Starting a run of',
  list: 'Listing the runs of',
  get: 'Reading run',
}

const manageRuns: ToolView<'manage-runs'> = {
  icon: Play,
  running: (input) =>
    `${RUN_VERBS[input.action ?? ''] ?? 'Working on'} ${input.action === 'get' ? (input.runId ?? '') : (input.name ?? input.jobId ?? 'a job')}…`,
  failed: (message, status) => `Could not do that with the runs: ${message}${status ? ` (${status})` : ''}`,
  done: (output) => {
    if (output.action === 'get')
      return (
        <span>
          Read{' '}
          <Link
            to={`/jobs/${output.run.jobId}/runs/${output.run.id}`}
            className="font-medium underline underline-offset-2"
          >
            run {output.run.id}
          </Link>
          : {output.run.status}
        </span>
      )
    return output.summary
  },
}

const workspace: ToolView<'workspace'> = {
  icon: FileText,
  running: () => 'Using workspace…',
  done: (output) => output.summary,
}

const clock: ToolView<'clock'> = {
  icon: Clock,
  running: () => 'Checking the time…',
  done: (output) => `Checked the time: ${output.local} (${output.timezone})`,
}

const sendNotification: ToolView<'send_notification'> = {
  icon: Send,
  running: (input) => `Sending a notification to ${input.target ?? '…'}…`,
  done: (output) =>
    'target' in output
      ? output.delivered
        ? `Sent a notification to ${output.target}`
        : `Could not deliver to ${output.target} (see the run's deliveries)`
      : 'Sent a notification',
  failed: (message) => `Could not send the notification: ${message}`,
}

/** A run's code and what it printed, folded under the step's line. */
function CodeAndOutput({ code, stdout, stderr }: { code?: string; stdout: string; stderr: string }) {
  const block = 'mt-1 max-h-60 overflow-auto rounded bg-stone-100 p-2 text-xs dark:bg-stone-800'
  return (
    <details className="mt-1" data-testid="run-code-details">
      <summary className="cursor-pointer text-xs text-stone-600 dark:text-stone-400">Code and output</summary>
      {code ? <pre className={block}>{code}</pre> : null}
      <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">stdout</p>
      <pre className={block} data-testid="run-code-stdout">
        {stdout || '(empty)'}
      </pre>
      {stderr ? (
        <>
          <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">stderr</p>
          <pre className={`${block} text-red-700 dark:text-red-400`}>{stderr}</pre>
        </>
      ) : null}
    </details>
  )
}

const runCode: ToolView<'run-code'> = {
  icon: FileCode,
  tint: 'text-brand-600',
  running: () => 'Running code…',
  done: (output, input) => (
    <div>
      <span>
        {output.timedOut
          ? `Code stopped: time limit reached after ${output.durationMs} ms`
          : `Ran code: exit ${output.exitCode} in ${output.durationMs} ms`}
      </span>
      <CodeAndOutput code={input.code} stdout={output.stdout} stderr={output.stderr} />
    </div>
  ),
  failed: (message) => `Could not run code: ${message}`,
}

const cli: ToolView<'cli'> = {
  icon: SquareTerminal,
  running: (input) => `Running ${[input.name, ...(input.args ?? [])].join(' ')}…`,
  done: (output, input) => (
    <div>
      <span>
        Ran {[input.name, ...(input.args ?? [])].join(' ')}: exit {output.exitCode ?? 'none (stopped)'}
      </span>
      <CodeAndOutput stdout={output.stdout} stderr={output.stderr} />
    </div>
  ),
}

const writeFileView: ToolView<'write_file'> = {
  icon: FilePen,
  running: (input) => `Writing ${input.path ?? 'a file'}…`,
  done: (output) => `Wrote ${output.path} (${output.bytes} bytes) in ${output.environment}`,
}

const readFileView: ToolView<'read_file'> = {
  icon: FileText,
  running: (input) => `Reading ${input.path ?? 'a file'}…`,
  done: (output) =>
    `Read ${output.path} (lines ${output.startLine}–${output.endLine} of ${output.totalLines})`,
  body: { kind: 'code', of: (output) => output.content },
}

const editFileView: ToolView<'edit_file'> = {
  icon: FilePen,
  running: (input) => `Editing ${input.path ?? 'a file'}…`,
  done: (output) => `Edited ${output.path} at line ${output.line}`,
}

const listDirectoryView: ToolView<'list_directory'> = {
  icon: FolderTree,
  running: (input) => `Listing ${input.path || 'the environment'}…`,
  done: (output) => `Listed ${output.entries.length} entries in ${output.path}`,
  body: {
    kind: 'code',
    of: (output) =>
      output.entries.map((e) => `${e.path}${e.type === 'folder' ? '/' : ''}  ${e.size}`).join('\n'),
  },
}

const searchFilesView: ToolView<'search_files'> = {
  icon: Search,
  running: (input) => `Searching for ${input.pattern ?? '…'}…`,
  done: (output) => `${output.matches} matches`,
  body: { kind: 'code', of: (output) => output.output },
}

/** The compact "files changed" part of a command's step: `+ created`, `~ changed`, `- deleted`. */
type FileChange = { type: 'create' | 'change' | 'delete'; path: string }
const MARK = { create: '+', change: '~', delete: '-' } as const
const filesChanged = (files: FileChange[] | undefined) =>
  files && files.length > 0
    ? `--- files changed (${files.length}) ---\n${files.map((f) => `${MARK[f.type]} ${f.path}`).join('\n')}`
    : ''
const changedNote = (files: FileChange[] | undefined) =>
  files && files.length > 0 ? ` · ${files.length} file${files.length === 1 ? '' : 's'} changed` : ''
const commandBody = (output: { stdout: string; stderr: string; files?: FileChange[]; refusal?: string }) =>
  [
    output.refusal && `--- ${output.refusal} ---`,
    output.stdout,
    output.stderr && `--- stderr ---\n${output.stderr}`,
    filesChanged(output.files),
  ]
    .filter(Boolean)
    .join('\n')
/** "network refused (example.com:80) · " when the sandbox refused the command's connections. */
const refusedNote = (blocked: string[] | undefined) =>
  blocked && blocked.length > 0 ? `network refused (${blocked.join(', ')}) · ` : ''

const runCommandView: ToolView<'run_command'> = {
  icon: SquareTerminal,
  running: (input) => `Running ${input.command ?? 'a command'}…`,
  done: (output) =>
    `Ran in ${output.environment}: ${refusedNote(output.networkBlocked)}exit ${output.exitCode ?? 'killed'} (${output.durationMs} ms)${changedNote(output.files)}`,
  body: { kind: 'code', of: commandBody },
  approval: (input) => ({
    title: 'Run this command?',
    body: `The environment's policy asks before running:\n${input.command ?? ''}`,
    confirm: 'Run once',
    cancel: 'Deny',
    what: `run ${input.command ?? 'the command'}`,
  }),
}

const runScriptView: ToolView<'run_script'> = {
  icon: SquareTerminal,
  running: (input) => `Running script ${input.name ?? ''}…`,
  done: (output) =>
    `Ran script ${output.script} in ${output.environment}: ${refusedNote(output.networkBlocked)}exit ${output.exitCode ?? 'killed'} (${output.durationMs} ms)${changedNote(output.files)}`,
  body: { kind: 'code', of: commandBody },
  approval: (input) => ({
    title: 'Run this script?',
    body: `The environment's policy asks before running the script ${input.name ?? ''}`,
    confirm: 'Run once',
    cancel: 'Deny',
    what: `run the script ${input.name ?? ''}`,
  }),
}

const skillsView: ToolView<'skills'> = {
  icon: FileText,
  running: (input) =>
    input.action === 'list' ? 'Listing skills…' : `Asking to ${input.action ?? 'decide'} a skill…`,
  done: (output) => `${output.skills.length} skills`,
  body: {
    kind: 'code',
    of: (output) => output.skills.map((s) => `${s.name}  ${s.status}  ${s.description}`).join('\n'),
  },
}

const webFetchView: ToolView<'web_fetch'> = {
  icon: Globe,
  running: (input) => `Reading ${input.url ?? 'a web page'}…`,
  failed: (message) => message,
  done: (output) =>
    `Read ${output.title ? `“${output.title}” ` : ''}${output.url}${output.truncated ? ' (cut short)' : ''}`,
  body: { kind: 'markdown', of: (output) => output.content },
}

/** Every tool's view, by tool name. */
export const TOOL_VIEWS = {
  'manage-jobs': manageJobs,
  'manage-runs': manageRuns,
  workspace,
  clock,
  'run-code': runCode,
  cli,
  write_file: writeFileView,
  read_file: readFileView,
  edit_file: editFileView,
  list_directory: listDirectoryView,
  search_files: searchFilesView,
  run_command: runCommandView,
  run_script: runScriptView,
  // Its steps and approval card are drawn by harness-step.tsx; this line is its fallback.
  run_harness: {
    icon: Bot,
    running: (input) =>
      `${input.harness ?? 'A harness'} is working in ${input.environment ?? 'an environment'}…`,
    done: (_output, input) =>
      `${input.harness ?? 'The harness'} finished in ${input.environment ?? 'its environment'}`,
  },
  skills: skillsView,
  send_notification: sendNotification,
  web_fetch: webFetchView,
} satisfies {
  [N in AgentToolName]: ToolView<N>
}

/**
 * An MCP server's tool (`<server>__<tool>`, server/agent/mcp-tools.ts): their names are only known
 * at run time, so they share one view that shows the server, the tool and its text result.
 */
function mcpToolView(name: string): ToolView {
  const [server, ...rest] = name.split('__')
  const label = `${rest.join('__')} on ${server}`
  const view = {
    icon: Plug,
    running: () => `Calling ${label}…`,
    done: () => `Called ${label}`,
    failed: (message: string) => message,
    body: { kind: 'code', of: (output: { content?: string }) => output.content ?? '' },
  }
  return view as unknown as ToolView
}

/** The view of a tool by the name in its message part; undefined for a tool this build does not know. */
export function toolView(name: string): ToolView | undefined {
  return (
    (TOOL_VIEWS as Record<string, ToolView>)[name] ?? (name.includes('__') ? mcpToolView(name) : undefined)
  )
}
