/**
 * OpenCode (`opencode`, the npm package `opencode-ai`) as a harness. It speaks the Anthropic
 * Messages API through its bundled AI SDK provider, so it reaches the run's endpoint like Claude
 * Code does. Projection: one config file (`OPENCODE_CONFIG`) with the `anthropic` provider pointed
 * at the endpoint with the run's token, the model, the MCP servers (URLs of the endpoint only) and
 * one local plugin file whose `tool.execute.before` asks the run's hook before every tool call and
 * throws (refusing the call) unless the environment's policy allows it. The folder's own
 * `opencode.json` / `.opencode/` are not read (`OPENCODE_DISABLE_PROJECT_CONFIG`), so the folder
 * cannot switch the plugin off. Instructions: the folder's `AGENTS.md`, named in the config.
 * Skills: `<home>/.config/opencode/skills/<name>/SKILL.md`. Output: `run --format json` events.
 */
import { existsSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import {
  installFolder,
  type HarnessAdapter,
  type HarnessParser,
  type HarnessSummary,
  type Projection,
  type ProjectionInput,
} from './adapter.ts'
import { cutSummary, keptTranscript } from './transcript.ts'

const INSTALL = {
  package: 'opencode-ai',
  // The newest release when this was written; a self-contained (Bun-compiled) binary.
  version: '1.18.33',
  bin: 'bin/opencode.exe',
  pathVariable: 'OPENCODE_PATH',
  command: 'opencode',
}

function locate(): string | null {
  const given = process.env[INSTALL.pathVariable]
  const path = given || join(installFolder('opencode'), 'node_modules', INSTALL.package, INSTALL.bin)
  return existsSync(path) ? realpathSync(path) : null
}

/**
 * OpenCode's tool names → Claude Code's, which the policy hook judges (policy-hook.ts) and the run
 * page shows, and its `filePath` argument → `file_path`: one policy, one audit, one way to read a
 * step, whichever harness made it. Other tools (MCP tools are `<server>_<tool>`) keep their names.
 */
const TOOL_NAMES: Record<string, string> = {
  bash: 'Bash',
  write: 'Write',
  edit: 'Edit',
  // The pinned 1.18.33 has none; a version that offers one (OPENCODE_PATH may name any) would
  // otherwise have its edits pass the hook as an unknown tool, unaudited.
  multiedit: 'MultiEdit',
  patch: 'Edit',
  read: 'Read',
  grep: 'Grep',
  glob: 'Glob',
  webfetch: 'WebFetch',
  websearch: 'WebSearch',
}

/** A tool call's input with `file_path` beside OpenCode's `filePath`. */
function toolInput(input: unknown): unknown {
  if (!input || typeof input !== 'object') return input ?? {}
  const args = input as Record<string, unknown>
  return typeof args.filePath === 'string' ? { ...args, file_path: args.filePath } : args
}

/** The plugin: runs inside OpenCode, asks the run's hook, refuses the call unless it says allow. */
function hookPlugin(hookUrl: string): string {
  return `// Written by Clockwork for one run: every tool call is decided by the environment's policy.
const HOOK = ${JSON.stringify(hookUrl)}
const NAMES = ${JSON.stringify(TOOL_NAMES)}
export const ClockworkPolicy = async () => {
  // Clockwork makes no model call for this run until the plugin says it is loaded.
  await fetch(HOOK, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ hook_event_name: 'PolicyLoaded' }),
  })
  return {
    'tool.execute.before': async (input, output) => {
      const args = (output && output.args) || {}
      const toolInput = { ...args }
      if (typeof args.filePath === 'string') toolInput.file_path = args.filePath
      let answer
      try {
        const res = await fetch(HOOK, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            hook_event_name: 'PreToolUse',
            tool_name: NAMES[input.tool] || input.tool,
            tool_input: toolInput,
          }),
        })
        answer = res.ok ? await res.json() : null
      } catch {
        answer = null
      }
      const out = (answer && answer.hookSpecificOutput) || {}
      if (out.permissionDecision !== 'allow')
        throw new Error(out.permissionDecisionReason || "Refused: Clockwork's policy hook did not allow this call")
    },
  }
}
`
}

function project(input: ProjectionInput): Projection {
  const { runDir, endpoint } = input
  const config = {
    $schema: 'https://opencode.ai/config.json',
    model: `anthropic/${input.modelId}`,
    // Titles and summaries would otherwise go to a second, smaller model.
    small_model: `anthropic/${input.modelId}`,
    provider: {
      anthropic: {
        // The AI SDK's base URL ends in /v1; the token is the run's, never a provider key.
        options: { baseURL: `${endpoint.baseUrl}/v1`, apiKey: endpoint.token },
        models: { [input.modelId]: {} },
      },
    },
    mcp: Object.fromEntries(
      input.mcpServers.map((s) => [s.name, { type: 'remote', url: s.url, enabled: true, oauth: false }]),
    ),
    // The environment's instructions (the folder's own config, which would name them, is not read).
    instructions: [join(input.root, 'AGENTS.md')],
    plugin: [`file://${join(runDir, 'clockwork-policy.js')}`],
    // Clockwork's hook decides; OpenCode's own prompts would stall an unattended run.
    permission: { '*': 'allow' },
    autoupdate: false,
    share: 'disabled',
  }
  const home = join(runDir, 'home')
  return {
    files: [
      { path: 'opencode.json', content: JSON.stringify(config, null, 2) },
      { path: 'clockwork-policy.js', content: hookPlugin(endpoint.hookUrl) },
      ...input.skills.map((s) => ({
        path: `home/.config/opencode/skills/${s.name}/SKILL.md`,
        content: s.content,
      })),
    ],
    // `--` ends the options: a prompt that starts with a dash stays the prompt.
    args: ['run', '--format', 'json', '--title', 'Clockwork run', '--', input.prompt],
    env: {
      HOME: home,
      TMPDIR: join(runDir, 'tmp'),
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      OPENCODE_CONFIG: join(runDir, 'opencode.json'),
      OPENCODE_DISABLE_PROJECT_CONFIG: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
      // OpenCode installs its plugin SDK into its config home with npm before the first model call;
      // the sandbox has no network, and npm's retries would hold the run for over a minute. Offline,
      // it fails at once (the plugin imports nothing).
      npm_config_offline: 'true',
    },
  }
}

type OpenCodeEvent = {
  type?: string
  part?: {
    type?: string
    text?: string
    tool?: string
    callID?: string
    reason?: string
    state?: { status?: string; input?: unknown; output?: unknown; error?: unknown }
  }
  error?: { name?: string; message?: string; data?: { message?: string } }
}

function parser(redact?: (text: string) => string): HarnessParser {
  const kept = keptTranscript(redact)
  let summary: HarnessSummary = { error: 'OpenCode ended without finishing its task' }
  let lastText: string | undefined
  let failed: string | null = null
  return {
    push(line) {
      let event: OpenCodeEvent
      try {
        event = JSON.parse(line) as OpenCodeEvent
      } catch {
        return false // a log line, not an event
      }
      const part = event.part
      if (event.type === 'text' && part?.text) {
        lastText = part.text
        return kept.add({ type: 'text', text: part.text })
      }
      if (event.type === 'tool_use' && part?.callID) {
        const state = part.state ?? {}
        const id = part.callID
        // A call's later events (its result) add nothing: the first one kept it, or left it out.
        const added = kept.add({
          type: `tool-${TOOL_NAMES[part.tool ?? ''] ?? part.tool ?? 'tool'}`,
          toolCallId: id,
          state: 'input-available',
          input: toolInput(state.input),
        })
        if (state.status === 'completed')
          return kept.settle(id, { state: 'output-available', output: state.output }) || added
        if (state.status === 'error')
          return (
            kept.settle(id, { state: 'output-error', errorText: String(state.error ?? 'failed') }) || added
          )
        return added
      }
      if (event.type === 'error') {
        const e = event.error ?? {}
        failed ??= e.data?.message ?? e.message ?? e.name ?? 'OpenCode reported an error'
        summary = cutSummary({ error: failed })
      }
      if (event.type === 'step_finish' && part?.reason && part.reason !== 'tool-calls' && !failed)
        summary = cutSummary({ error: null, result: lastText })
      return false
    },
    leaveOut: kept.leaveOut,
    parts: kept.parts,
    summary: () => summary,
  }
}

export const openCode: HarnessAdapter = {
  id: 'opencode',
  label: 'OpenCode',
  install: INSTALL,
  locate,
  project,
  parser,
  checksIn: true,
}
