import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openCode } from './opencode.ts'

// An environment's folder and a run's folder, as the launcher hands them over (absolute paths).
const root = path.join(os.tmpdir(), 'envs', 'work')
const runDir = path.join(root, '.harness-1')

const line = (event: unknown) => JSON.stringify(event)

describe('opencode projection', () => {
  const projection = openCode.project({
    root,
    runDir,
    prompt: '--help; then $(rm -rf /)',
    modelId: 'claude-sonnet-4-5',
    skills: [{ name: 'report', content: 'How to report.' }],
    mcpServers: [{ name: 'docs', url: 'http://127.0.0.1:4000/hrn_x/mcp/docs' }],
    endpoint: {
      baseUrl: 'http://127.0.0.1:4000/hrn_x',
      token: 'hrn_x',
      hookUrl: 'http://127.0.0.1:4000/hrn_x/hook',
      hookTimeoutSeconds: 30,
    },
  })
  const files = Object.fromEntries(projection.files.map((f) => [f.path, f.content]))
  const config = JSON.parse(files['opencode.json']!)

  it('runs one prompt with JSON events; a prompt that looks like an option stays the prompt', () => {
    expect(projection.args).toEqual([
      'run',
      '--format',
      'json',
      '--title',
      'Clockwork run',
      '--',
      '--help; then $(rm -rf /)',
    ])
  })

  it('points the Anthropic provider at the run endpoint with the run token, never a provider key', () => {
    expect(config.model).toBe('anthropic/claude-sonnet-4-5')
    expect(config.small_model).toBe('anthropic/claude-sonnet-4-5')
    expect(config.provider.anthropic.options).toEqual({
      baseURL: 'http://127.0.0.1:4000/hrn_x/v1',
      apiKey: 'hrn_x',
    })
  })

  it('reads only its own config: the folder cannot switch the policy plugin off', () => {
    expect(projection.env).toMatchObject({
      OPENCODE_CONFIG: `${runDir}/opencode.json`,
      OPENCODE_DISABLE_PROJECT_CONFIG: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      npm_config_offline: 'true',
      HOME: `${runDir}/home`,
      XDG_CONFIG_HOME: `${runDir}/home/.config`,
    })
    expect(config.plugin).toEqual([`file://${runDir}/clockwork-policy.js`])
    expect(config.instructions).toEqual([`${root}/AGENTS.md`])
  })

  it('writes the MCP servers as endpoint URLs and the skills under its config home', () => {
    expect(config.mcp).toEqual({
      docs: { type: 'remote', url: 'http://127.0.0.1:4000/hrn_x/mcp/docs', enabled: true, oauth: false },
    })
    expect(files['home/.config/opencode/skills/report/SKILL.md']).toBe('How to report.')
    expect(projection.files.every((f) => !f.path.startsWith('/') && !f.path.includes('..'))).toBe(true)
  })

  it("asks the run's hook before every tool call and refuses unless it says allow", async () => {
    const source = files['clockwork-policy.js']!
    expect(source).toContain('"http://127.0.0.1:4000/hrn_x/hook"')
    const module = await import(`data:text/javascript,${encodeURIComponent(source)}`)
    const sent: unknown[] = []
    const answers: unknown[] = [
      { ok: true },
      { hookSpecificOutput: { permissionDecision: 'allow' } },
      { hookSpecificOutput: { permissionDecision: 'allow' } },
      {
        hookSpecificOutput: {
          permissionDecision: 'deny',
          permissionDecisionReason: 'Denied by deny: curl *',
        },
      },
    ]
    const realFetch = globalThis.fetch
    globalThis.fetch = (async (_url: string, init: { body: string }) => {
      sent.push(JSON.parse(init.body))
      const answer = answers.shift()
      if (!answer) throw new Error('unreachable')
      return Response.json(answer)
    }) as never
    try {
      const hooks = await module.ClockworkPolicy()
      const before = hooks['tool.execute.before']
      await before({ tool: 'write' }, { args: { filePath: 'a.txt', content: 'x' } })
      // An edit by any of its tools is a write the hook audits, under Claude Code's name for it.
      await before({ tool: 'multiedit' }, { args: { filePath: 'b.txt', edits: [] } })
      await expect(before({ tool: 'bash' }, { args: { command: 'curl x' } })).rejects.toThrow(
        'Denied by deny: curl *',
      )
      // The hook cannot be reached: the call is refused, not let through.
      await expect(before({ tool: 'bash' }, { args: { command: 'ls' } })).rejects.toThrow(/Refused/)
    } finally {
      globalThis.fetch = realFetch
    }
    expect(sent).toEqual([
      // Loading the plugin announces it: the run's endpoint makes no model call before that.
      { hook_event_name: 'PolicyLoaded' },
      {
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: { filePath: 'a.txt', content: 'x', file_path: 'a.txt' },
      },
      {
        hook_event_name: 'PreToolUse',
        tool_name: 'MultiEdit',
        tool_input: { filePath: 'b.txt', edits: [], file_path: 'b.txt' },
      },
      { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'curl x' } },
      { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } },
    ])
  })
})

describe('opencode events', () => {
  it('turns text and tool events into transcript steps with the shared tool names', () => {
    const p = openCode.parser()
    expect(p.push('not json')).toBe(false)
    p.push(line({ type: 'step_start', part: { type: 'step-start' } }))
    p.push(
      line({
        type: 'tool_use',
        part: {
          type: 'tool',
          tool: 'bash',
          callID: 'c1',
          state: { status: 'completed', input: { command: 'echo hi' }, output: 'hi\n' },
        },
      }),
    )
    p.push(
      line({
        type: 'tool_use',
        part: {
          type: 'tool',
          tool: 'write',
          callID: 'c2',
          state: { status: 'error', input: { filePath: 'x.txt' }, error: 'Denied by deny: *' },
        },
      }),
    )
    p.push(line({ type: 'step_finish', part: { reason: 'tool-calls' } }))
    expect(p.summary().error).toBe('OpenCode ended without finishing its task')
    p.push(line({ type: 'text', part: { type: 'text', text: 'Done.' } }))
    p.push(line({ type: 'step_finish', part: { reason: 'stop' } }))
    expect(p.parts()).toEqual([
      {
        type: 'tool-Bash',
        toolCallId: 'c1',
        state: 'output-available',
        input: { command: 'echo hi' },
        output: 'hi\n',
      },
      {
        type: 'tool-Write',
        toolCallId: 'c2',
        state: 'output-error',
        input: { filePath: 'x.txt', file_path: 'x.txt' },
        errorText: 'Denied by deny: *',
      },
      { type: 'text', text: 'Done.' },
    ])
    expect(p.summary()).toEqual({ error: null, result: 'Done.' })
  })

  it('reports an error event as the run failure', () => {
    const p = openCode.parser()
    p.push(line({ type: 'error', error: { name: 'APIError', data: { message: 'over the cap' } } }))
    p.push(line({ type: 'step_finish', part: { reason: 'stop' } }))
    expect(p.summary().error).toBe('over the cap')
  })
})
