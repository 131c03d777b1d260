/**
 * Claude Code (`claude`, the npm package `@anthropic-ai/claude-code`) as a harness. Projection:
 * the environment's instructions are already `CLAUDE.md` in the folder; approved skills become
 * `.claude/skills/<name>/SKILL.md` of the run's throw-away home; MCP servers go into an `--mcp-config` file (with
 * `--strict-mcp-config`, so a `.mcp.json` in the folder is not read); a `--settings` file adds one
 * HTTP `PreToolUse` hook, answered by the run's endpoint, which decides every tool call by the
 * environment's policy. Only the user setting source is loaded, from the throw-away home, so a
 * `.claude/settings.json` the folder holds cannot switch the hook off. Output: `stream-json`.
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
  package: '@anthropic-ai/claude-code',
  // The newest 2.1.x when this was written; its native binary needs no Node at all.
  version: '2.1.332',
  bin: 'bin/claude.exe',
  pathVariable: 'CLAUDE_CODE_PATH',
  command: 'claude',
}

function locate(): string | null {
  const given = process.env[INSTALL.pathVariable]
  const path = given || join(installFolder('claude-code'), 'node_modules', INSTALL.package, INSTALL.bin)
  return existsSync(path) ? realpathSync(path) : null
}

function project(input: ProjectionInput): Projection {
  const { runDir, endpoint } = input
  const settings = {
    hooks: {
      PreToolUse: [
        {
          matcher: '*',
          hooks: [
            {
              type: 'http',
              url: endpoint.hookUrl,
              timeout: endpoint.hookTimeoutSeconds,
              onFailure: 'block',
            },
          ],
        },
      ],
    },
    disableAllHooks: false,
  }
  const mcp = {
    mcpServers: Object.fromEntries(input.mcpServers.map((s) => [s.name, { type: 'http', url: s.url }])),
  }
  const files = [
    { path: 'settings.json', content: JSON.stringify(settings, null, 2) },
    { path: 'mcp.json', content: JSON.stringify(mcp, null, 2) },
    // User skills of the throw-away home: the only setting source loaded (see above).
    ...input.skills.map((s) => ({ path: `home/.claude/skills/${s.name}/SKILL.md`, content: s.content })),
  ]
  return {
    files,
    args: [
      '-p',
      input.prompt,
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      input.modelId,
      '--settings',
      join(runDir, 'settings.json'),
      '--setting-sources',
      'user',
      '--mcp-config',
      join(runDir, 'mcp.json'),
      '--strict-mcp-config',
      '--permission-mode',
      'default',
    ],
    env: {
      HOME: join(runDir, 'home'),
      TMPDIR: join(runDir, 'tmp'),
      // Without /v1: the CLI appends /v1/messages itself.
      ANTHROPIC_BASE_URL: endpoint.baseUrl,
      ANTHROPIC_API_KEY: endpoint.token,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
    },
  }
}

type Block = { type: string; text?: string; id?: string; name?: string; input?: unknown }
type ResultBlock = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean }

/** The text of a tool result's content (a string, or a list of text blocks). */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content))
    return content
      .map((c: { type?: string; text?: string }) => (c.type === 'text' ? (c.text ?? '') : ''))
      .join('\n')
  return content === undefined ? '' : JSON.stringify(content)
}

function parser(redact?: (text: string) => string): HarnessParser {
  const kept = keptTranscript(redact)
  let summary: HarnessSummary = { error: 'Claude Code ended without a result' }
  return {
    push(line) {
      let event: {
        type?: string
        subtype?: string
        message?: { content?: unknown }
        tool_use_result?: unknown
        is_error?: boolean
        result?: string
        errors?: string[]
      }
      try {
        event = JSON.parse(line)
      } catch {
        return false // not an event (a stray line on stdout)
      }
      const content = Array.isArray(event.message?.content) ? (event.message.content as Block[]) : []
      if (event.type === 'assistant') {
        let changed = false
        for (const block of content) {
          if (block.type === 'text' && block.text) changed = kept.add({ type: 'text', text: block.text })
          if (block.type === 'tool_use' && block.id)
            changed = kept.add({
              type: `tool-${block.name ?? 'tool'}`,
              toolCallId: block.id,
              state: 'input-available',
              input: block.input ?? {},
            })
        }
        return changed
      }
      if (event.type === 'user') {
        let changed = false
        for (const block of content as ResultBlock[]) {
          const id = block.type === 'tool_result' && block.tool_use_id
          if (!id || !kept.tool(id)) continue
          const text = resultText(block.content)
          if (block.is_error) kept.settle(id, { state: 'output-error', errorText: text })
          else kept.settle(id, { state: 'output-available', output: event.tool_use_result ?? text })
          changed = true
        }
        return changed
      }
      if (event.type === 'result') {
        const failed = event.is_error || (event.subtype && event.subtype !== 'success')
        summary = cutSummary({
          error: failed
            ? event.result || event.errors?.join('; ') || `Claude Code stopped (${event.subtype})`
            : null,
          result: event.result,
        })
      }
      return false
    },
    leaveOut: kept.leaveOut,
    parts: kept.parts,
    summary: () => summary,
  }
}

export const claudeCode: HarnessAdapter = {
  id: 'claude-code',
  label: 'Claude Code',
  install: INSTALL,
  locate,
  project,
  parser,
}
