import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { HARNESS_IDS } from '../jobs/field-schemas.ts'
import { claudeCode } from './claude-code.ts'
import { harnessAdapters } from './registry.ts'
import { HARNESS_SUMMARY_MAX_CHARS } from './transcript.ts'

// An environment's folder and a run's folder, as the launcher hands them over (absolute paths).
const root = path.join(os.tmpdir(), 'envs', 'work')
const runDir = path.join(root, '.harness-1')

const line = (event: unknown) => JSON.stringify(event)

describe('the harness registry', () => {
  it('offers exactly the job field values other than builtin', () => {
    expect(harnessAdapters().map((a) => a.id)).toEqual(HARNESS_IDS.filter((id) => id !== 'builtin'))
  })
})

describe('claude-code projection', () => {
  const projection = claudeCode.project({
    root,
    runDir,
    prompt: "Say 'hi'; then $(rm -rf /)",
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

  it('passes the prompt as one argument, streams JSON, loads only its own settings and MCP file', () => {
    const { args } = projection
    expect(args.slice(0, 2)).toEqual(['-p', "Say 'hi'; then $(rm -rf /)"])
    expect(args.join(' ')).toContain('--output-format stream-json --verbose --model claude-sonnet-4-5')
    expect(args).toContain('--strict-mcp-config')
    expect(args[args.indexOf('--setting-sources') + 1]).toBe('user')
    expect(args).not.toContain('--dangerously-skip-permissions')
  })

  it('points the CLI at the run endpoint with the run token, never a provider key', () => {
    expect(projection.env).toMatchObject({
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000/hrn_x',
      ANTHROPIC_API_KEY: 'hrn_x',
      HOME: `${runDir}/home`,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
    })
  })

  it('writes the hook, the MCP servers (URL only) and the skills inside the run folder', () => {
    const files = Object.fromEntries(projection.files.map((f) => [f.path, f.content]))
    expect(JSON.parse(files['settings.json']!).hooks.PreToolUse[0].hooks[0]).toEqual({
      type: 'http',
      url: 'http://127.0.0.1:4000/hrn_x/hook',
      timeout: 30,
      onFailure: 'block',
    })
    expect(JSON.parse(files['mcp.json']!)).toEqual({
      mcpServers: { docs: { type: 'http', url: 'http://127.0.0.1:4000/hrn_x/mcp/docs' } },
    })
    expect(files['home/.claude/skills/report/SKILL.md']).toBe('How to report.')
  })
})

describe('claude-code stream parser', () => {
  it('turns text, tool calls and their results into transcript parts', () => {
    const parser = claudeCode.parser()
    parser.push(line({ type: 'system', subtype: 'init', tools: ['Bash'] }))
    expect(
      parser.push(
        line({
          type: 'assistant',
          message: {
            content: [
              { type: 'text', text: 'Writing it.' },
              { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'echo hi' } },
              { type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'curl x' } },
            ],
          },
        }),
      ),
    ).toBe(true)
    parser.push(
      line({
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'hi', is_error: false }] },
        tool_use_result: { stdout: 'hi', stderr: '' },
      }),
    )
    parser.push(
      line({
        type: 'user',
        message: {
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't2',
              content: [{ type: 'text', text: 'Denied' }],
              is_error: true,
            },
          ],
        },
      }),
    )
    parser.push('not json at all')
    parser.push(line({ type: 'result', subtype: 'success', is_error: false, result: 'Done' }))
    expect(parser.parts()).toEqual([
      { type: 'text', text: 'Writing it.' },
      {
        type: 'tool-Bash',
        toolCallId: 't1',
        state: 'output-available',
        input: { command: 'echo hi' },
        output: { stdout: 'hi', stderr: '' },
      },
      {
        type: 'tool-Bash',
        toolCallId: 't2',
        state: 'output-error',
        input: { command: 'curl x' },
        errorText: 'Denied',
      },
    ])
    expect(parser.summary()).toEqual({ error: null, result: 'Done' })
  })

  it('reports a failed or missing result', () => {
    const failed = claudeCode.parser()
    failed.push(
      line({ type: 'result', subtype: 'error_during_execution', is_error: true, result: 'API Error: 403' }),
    )
    expect(failed.summary().error).toBe('API Error: 403')
    expect(claudeCode.parser().summary().error).toBe('Claude Code ended without a result')
  })

  it('cuts a result of megabytes, which may become the run’s stored error or result', () => {
    const huge = 'x'.repeat(3_000_000)
    const failed = claudeCode.parser()
    failed.push(line({ type: 'result', subtype: 'error_during_execution', is_error: true, result: huge }))
    const { error, result } = failed.summary()
    for (const text of [error, result]) {
      expect(text!.length).toBeLessThanOrEqual(HARNESS_SUMMARY_MAX_CHARS)
      expect(text).toMatch(/\[… \d+ characters left out …\]$/)
    }
  })
})
