/**
 * MCP servers' tools in a conversation: the org's and the person's servers (or, in a run, those
 * the job names in `mcp`) become AI SDK tools named `<server>__<tool>` (Anthropic allows
 * `^[a-zA-Z0-9_-]{1,64}$`), with the server's descriptions and input schemas. A server that cannot
 * be listed is left out and named in the system prompt; a call that fails comes back as a tool
 * error the model can read, never as a crash of the turn.
 */
import { createHash } from 'node:crypto'
import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai'
import type { Caller } from '../auth/caller.ts'
import {
  callMcpTool,
  describeMcpError,
  headerRedactor,
  listMcpTools,
  type McpFailureKind,
} from '../integrations/mcp-client.ts'
import { endpointOf, serversForAgent } from '../integrations/mcp-service.ts'
import { logger } from '../lib/logger.ts'
import type { ToolFailure } from './tool-context.ts'

const MAX_NAME = 64

/** `<server>__<tool>` within Anthropic's name rules; long or clashing names end in a short hash. */
export function mcpToolName(
  server: string,
  toolName: string,
  taken: ReadonlySet<string> = new Set(),
): string {
  const plain = `${server}__${toolName.replace(/[^a-zA-Z0-9_-]/g, '_')}`
  if (plain.length <= MAX_NAME && !taken.has(plain)) return plain
  const hash = createHash('sha256').update(`${server}\n${toolName}`).digest('hex').slice(0, 8)
  return `${plain.slice(0, MAX_NAME - 9)}_${hash}`
}

const STATUS: Record<McpFailureKind, number> = {
  unreachable: 502,
  auth: 502,
  timeout: 504,
  refused: 403,
  protocol: 502,
  config: 424,
}

function mcpToolFailure(server: string, err: unknown): ToolFailure {
  const failure = describeMcpError(server, err)
  return {
    ok: false,
    error: { status: STATUS[failure.kind], code: `mcp_${failure.kind}`, message: failure.message },
  }
}

export type McpToolSet = {
  tools: Record<string, Tool>
  /** A line for the system prompt about servers left out (unreachable, unknown); '' when none. */
  note: string
}

/**
 * The MCP tools of one conversation. `only`: the job's `mcp` list in a run (the run executor passes [] for none); null, in chat: every server.
 * Servers are listed in parallel; each listing is cached for a minute.
 */
export async function loadMcpTools(
  caller: Pick<Caller, 'userId' | 'orgId'>,
  only: readonly string[] | null = null,
): Promise<McpToolSet> {
  const { servers, unknown } = await serversForAgent(caller, only)
  const tools: Record<string, Tool> = {}
  // One set for every server's names: copying the names so far for each tool was quadratic.
  const taken = new Set<string>()
  const problems: string[] = unknown.map((name) => `${name}: no such MCP server`)
  const listed = await Promise.all(
    servers.map(async (row) => {
      try {
        const endpoint = await endpointOf(row)
        return { row, endpoint, list: await listMcpTools(endpoint) }
      } catch (err) {
        const failure = describeMcpError(row.name, err)
        logger.warn(
          { server: row.id, orgId: row.orgId, kind: failure.kind },
          'MCP server left out of a conversation',
        )
        problems.push(failure.message)
        return null
      }
    }),
  )
  for (const entry of listed) {
    if (!entry) continue
    const { row, endpoint, list } = entry
    const redact = headerRedactor(endpoint.headers)
    for (const mcpTool of list) {
      // The listing keeps the name as the server spells it, for the call; the model sees it redacted.
      const shownName = redact(mcpTool.name)
      const name = mcpToolName(row.name, shownName, taken)
      taken.add(name)
      tools[name] = tool({
        description: `[MCP server ${row.name}] ${mcpTool.description ?? mcpTool.title ?? shownName}`.slice(
          0,
          1024,
        ),
        inputSchema: jsonSchema<Record<string, unknown>>(mcpTool.inputSchema as JSONSchema7),
        execute: async (input, { abortSignal }) => {
          try {
            const result = await callMcpTool(endpoint, mcpTool.name, input ?? {}, abortSignal)
            if (result.isError)
              return {
                ok: false as const,
                error: {
                  status: 422,
                  code: 'mcp_tool_error',
                  message: result.text || `${shownName} failed`,
                },
              }
            return {
              ok: true as const,
              server: row.name,
              tool: shownName,
              content: result.text,
              structured: result.structured,
            }
          } catch (err) {
            return mcpToolFailure(row.name, err)
          }
        },
      })
    }
  }
  const note = problems.length
    ? `Some MCP servers are not available in this conversation: ${problems.join('; ')}.`
    : ''
  return { tools, note }
}

/** The system prompt with a word on MCP tools: where they come from, and which servers are missing. */
export function withMcpNote(system: string, mcp: McpToolSet): string {
  const lines = []
  if (Object.keys(mcp.tools).length)
    lines.push(
      'Tools named <server>__<tool> come from MCP servers connected by the person or the organisation.',
    )
  if (mcp.note) lines.push(mcp.note)
  return lines.length ? `${system}\n\n${lines.join('\n')}` : system
}
