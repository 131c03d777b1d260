/**
 * The harness seam: a coding-agent CLI (Claude Code, Codex, Gemini CLI, …) as the agent of a run.
 * An adapter knows only its CLI: where it is installed, how an environment and a prompt become its
 * files, arguments and variables (the *projection*), and how its event stream becomes transcript
 * steps. Everything around it (the sandbox, the per-run model endpoint, the policy hook, the
 * audit, budgets, cancel) is `run.ts`'s, so a new adapter is one file plus a line in registry.ts.
 */
import { resolve } from 'node:path'

/** Where a CLI comes from: `npm run harness:install <id>` installs `package@version` under `.data/harness/<id>`. */
export type HarnessInstall = {
  package: string
  /** Exact: a harness is a program we run against our endpoint, so its behaviour is pinned. */
  version: string
  /** The executable inside the package folder. */
  bin: string
  /** The env variable that points at a CLI installed elsewhere. */
  pathVariable: string
  /** Its name on a PATH (a connected machine runs `$<pathVariable>`, else this). */
  command: string
}

/** Where `npm run harness:install <id>` puts a CLI. */
export const installFolder = (id: string) => resolve('.data', 'harness', id)

/** An MCP server as the harness reaches it: through the run's endpoint, never with its secrets. */
export type ProjectedMcpServer = { name: string; url: string }

/** What the runner hands an adapter to project. Paths are absolute, as the CLI sees them where it runs. */
export type ProjectionInput = {
  /** The environment's folder: the harness's working directory. */
  root: string
  /** A throw-away folder inside `root` for the harness's home, settings and config; removed after the run. */
  runDir: string
  /** The job's instructions or the chat's task. */
  prompt: string
  /** The model the run is entitled to (AGENT_MODEL's id). */
  modelId: string
  /** Approved skills by name with their SKILL.md text. */
  skills: { name: string; content: string }[]
  mcpServers: ProjectedMcpServer[]
  /** The run's endpoint as seen from inside the sandbox. */
  endpoint: {
    /** e.g. `http://127.0.0.1:39123`: the model API lives under `/v1`. */
    baseUrl: string
    /** The per-run token, alive only while the run is: the harness's "API key". */
    token: string
    /** Where the harness asks before each tool call (POST, the CLI's hook payload). */
    hookUrl: string
    /** How long a hook may wait for a person's approval, in seconds. */
    hookTimeoutSeconds: number
  }
}

/** Files to write and the command to run in the environment's folder. */
export type Projection = {
  /** Relative to `runDir` (nothing is written elsewhere: the folder's own paths are the tenant's). */
  files: { path: string; content: string }[]
  /** Arguments after the CLI itself. */
  args: string[]
  /** Plain variables (no secrets of the server's: the token is the run's own). */
  env: Record<string, string>
}

/** One step of a transcript in the AI SDK's UI message part shape (what the run page and chat render). */
export type TranscriptPart =
  | { type: 'text'; text: string }
  | {
      type: `tool-${string}`
      toolCallId: string
      state: 'input-available' | 'output-available' | 'output-error'
      input: unknown
      output?: unknown
      errorText?: string
    }

/** What a finished stream says about the run besides its steps. */
export type HarnessSummary = {
  /** The CLI's own verdict: null when it ended well, else why not. */
  error: string | null
  /** The CLI's final answer, when it gave one. */
  result?: string
}

/** Reads a CLI's output line by line, keeping the transcript so far, bounded (transcript.ts). */
export interface HarnessParser {
  /** One line of stdout. Returns true when the transcript changed. */
  push(line: string): boolean
  /** Counts a line left out unread (longer than HARNESS_LINE_MAX_BYTES, lines.ts). */
  leaveOut(): void
  /** The steps kept so far, redacted and cut, with a note when some were left out. */
  parts(): TranscriptPart[]
  summary(): HarnessSummary
}

export interface HarnessAdapter {
  /** The job field's value (`harness: <id>`). */
  readonly id: string
  /** How people call it ("Claude Code"). */
  readonly label: string
  readonly install: HarnessInstall
  /** The CLI's absolute path here, or null when it is not installed. */
  locate(): string | null
  /** The files, arguments and variables for one run. */
  project(input: ProjectionInput): Projection
  /** A fresh reader for one run's output; `redact` hides secrets in every step it keeps. */
  parser(redact?: (text: string) => string): HarnessParser
  /**
   * Its policy code is a plugin that announces itself (a hook call with `hook_event_name:
   * "PolicyLoaded"`) when the CLI loads it, and the run's endpoint refuses model calls until it
   * has: a plugin the CLI failed to load would otherwise leave every tool call unjudged. (Claude
   * Code's hook is in the settings file it is started with, which it fails to start without.)
   */
  readonly checksIn?: boolean
}
