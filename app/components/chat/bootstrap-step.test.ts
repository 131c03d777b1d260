import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ToolStep } from './tool-step.tsx'
import type { ToolPart } from './types.ts'

const render = (part: ToolPart) => renderToStaticMarkup(createElement(ToolStep, { part }))

const building = {
  ok: true,
  bootstrapping: {
    status: 'running',
    phase: 'setup',
    startedAt: '2026-12-01T10:00:00.000Z',
    steps: [
      {
        index: 0,
        command: 'npm ci',
        status: 'ok',
        startedAt: '2026-12-01T10:00:00.000Z',
        endedAt: '2026-12-01T10:00:02.000Z',
        exitCode: 0,
        tail: 'added 3 packages',
      },
      {
        index: 1,
        member: 0,
        command: 'npm run build',
        status: 'running',
        startedAt: '2026-12-01T10:00:02.000Z',
        tail: 'compiling…',
      },
      {
        index: 1,
        member: 1,
        command: 'npm run lint',
        status: 'running',
        startedAt: '2026-12-01T10:00:02.000Z',
      },
    ],
  },
}

describe('an environment tool call that builds its environment', () => {
  it('shows the build live while the call runs: phase, running steps grouped, output so far', () => {
    const html = render({
      type: 'tool-run_command',
      toolCallId: 'c1',
      state: 'output-available',
      preliminary: true,
      input: { environment: 'app', command: 'npm test' },
      output: building,
    })
    expect(html).toContain('data-testid="bootstrap-progress"')
    expect(html).toContain('Setting up app: running setup (npm run build · npm run lint)')
    expect(html).toContain('data-testid="bootstrap-parallel"')
    expect(html).toContain('Step 2: 2 commands in parallel')
    expect(html).toContain('compiling…')
    expect(html).toContain('2.0 s') // the finished step's time
    expect(html).not.toContain('Ran in') // not the result yet
  })

  it('keeps one line with the build’s steps and times under the result', () => {
    const html = render({
      type: 'tool-run_command',
      toolCallId: 'c2',
      state: 'output-available',
      input: { environment: 'app', command: 'npm test' },
      output: {
        ok: true,
        environment: 'app',
        exitCode: 0,
        stdout: 'ok',
        stderr: '',
        durationMs: 40,
        timedOut: false,
        decision: 'allowed',
        bootstrap: {
          status: 'ready',
          elapsedMs: 4000,
          steps: [
            { index: 0, command: 'npm ci', status: 'ok', elapsedMs: 2000, exitCode: 0 },
            { index: 1, member: 0, command: 'npm run build', status: 'ok', elapsedMs: 1500, exitCode: 0 },
          ],
        },
      },
    })
    expect(html).toContain('Ran in app: exit 0 (40 ms)')
    expect(html).toContain('Built the environment in 4.0 s: 2 setup steps')
    expect(html).toContain('npm run build')
    expect(html).toContain('1.5 s')
  })

  it('names the failed step when the build stopped the call', () => {
    const html = render({
      type: 'tool-list_directory',
      toolCallId: 'c3',
      state: 'output-available',
      input: { environment: 'app' },
      output: {
        ok: false,
        error: {
          status: 400,
          code: 'bad_request',
          message: 'setup: step 1 (npm ci) failed with exit 1:\nno lockfile',
        },
        bootstrap: {
          status: 'failed',
          phase: 'setup',
          elapsedMs: 900,
          steps: [{ index: 0, command: 'npm ci', status: 'failed', elapsedMs: 800, exitCode: 1 }],
        },
      },
    })
    expect(html).toContain('no lockfile')
    expect(html).toContain('Setup failed at npm ci (exit 1) in 900 ms')
  })
})
