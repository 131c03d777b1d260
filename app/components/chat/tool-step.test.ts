import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ToolStep } from './tool-step.tsx'
import { TOOL_VIEWS } from './tool-views.tsx'
import type { ToolPart } from './types.ts'

const waiting = (name: string, input: unknown): ToolPart => ({
  type: `tool-${name}`,
  toolCallId: 'call_1',
  state: 'approval-requested',
  input,
  approval: { id: 'appr_1' },
})
const render = (part: ToolPart) => renderToStaticMarkup(createElement(ToolStep, { part, onAnswer: () => {} }))

describe('tool steps', () => {
  it('asks with the tool’s own approval card when it has one', () => {
    const html = render(waiting('manage-jobs', { action: 'delete', name: 'morning-digest' }))
    expect(html).toContain('data-testid="tool-approval"')
    expect(html).toContain('Delete job morning-digest?')
    expect(html).toContain('>Delete job<')
    expect(html).toContain('>Keep it<')
  })

  it('asks with a generic card for every other tool that waits for approval', () => {
    // Tools with a card of their own (manage-jobs delete, run_command) are checked by name below.
    const generic = Object.entries(TOOL_VIEWS)
      .filter(([, view]) => !('approval' in view))
      .map(([name]) => name)
    for (const name of [...generic, 'web_fetch']) {
      const html = render(waiting(name, { path: 'x' }))
      expect(html, name).toContain('data-testid="tool-approval"')
      expect(html, name).toContain(`Allow ${name}?`)
      expect(html, name).toContain('>Allow<')
      expect(html, name).toContain('>Deny<')
      expect(html, name).not.toContain('Delete job')
    }
  })

  it('asks with the command itself before an environment runs one its policy marks ask', () => {
    const html = render(waiting('run_command', { command: 'npm publish' }))
    expect(html).toContain('data-testid="tool-approval"')
    expect(html).toContain('Run this command?')
    expect(html).toContain('npm publish')
    expect(html).toContain('>Run once<')
  })

  it('shows a done step with the tool’s line, and a plain line for a tool it does not know', () => {
    const clock = render({
      type: 'tool-clock',
      toolCallId: 'c',
      state: 'output-available',
      output: { ok: true, local: 'Monday 09:00', timezone: 'UTC' },
    })
    expect(clock).toContain('Checked the time: Monday 09:00 (UTC)')
    const other = render({
      type: 'tool-some_future_tool',
      toolCallId: 'w',
      state: 'output-available',
      output: { ok: true },
    })
    expect(other).toContain('Used some_future_tool')
    // An MCP server's tool (<server>__<tool>) shares one view naming the server.
    const mcp = render({
      type: 'tool-docs__lookup_docs',
      toolCallId: 'm',
      state: 'output-available',
      output: { ok: true, content: 'Deploys on Tuesdays' },
    })
    expect(mcp).toContain('Called lookup_docs on docs')
    expect(mcp).toContain('Deploys on Tuesdays')
  })

  it('names the refusal in the tool’s words', () => {
    const html = render({
      type: 'tool-manage-jobs',
      toolCallId: 'm',
      state: 'output-available',
      input: { action: 'update' },
      output: { ok: false, action: 'update', error: { status: 403, code: 'forbidden', message: 'no' } },
    })
    expect(html).toContain('Could not update the job: no (403)')
  })
})
