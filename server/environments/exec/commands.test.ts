import { describe, expect, it } from 'vitest'
import { type CommandAudit, runPolicedCommand } from './commands.ts'
import type { ExecResult } from './exec-schema.ts'

const result = (stdout: string): ExecResult => ({
  stdout,
  stderr: '',
  exitCode: 0,
  signal: null,
  timedOut: false,
  durationMs: 12,
  bytesOut: stdout.length,
  truncated: { stdout: false, stderr: false },
  mechanism: 'sandbox-runtime',
  disk: { usedBytes: 0, limitBytes: 1, overQuota: false },
})

function setup(policy: object = { commands: { ask: ['git push *'] } }) {
  const audit: CommandAudit[] = []
  const ran: string[] = []
  const deps = {
    audit: async (e: CommandAudit) => void audit.push(e),
    exec: async (_env: unknown, command: string) => {
      ran.push(command)
      return result('done\n')
    },
  }
  const env = { root: '/nowhere', policy: policy as never, secrets: { TOKEN: 'tok-secret-1234' } }
  return { audit, ran, deps, env }
}

describe('runPolicedCommand', () => {
  it('runs an allowed command and audits it with its exit code, duration and bytes', async () => {
    const { audit, ran, deps, env } = setup()
    const outcome = await runPolicedCommand({ env, command: 'ls', mode: 'run' }, deps)
    expect(outcome).toMatchObject({ status: 'ran', decision: 'allowed' })
    expect(ran).toEqual(['ls'])
    expect(audit).toEqual([
      {
        kind: 'command',
        command: 'ls',
        decision: 'allowed',
        rule: null,
        reason: null,
        exitCode: 0,
        durationMs: 12,
        bytesOut: 5,
      },
    ])
  })

  it('denies and audits without running', async () => {
    const { audit, ran, deps, env } = setup()
    const outcome = await runPolicedCommand({ env, command: 'sudo id', mode: 'person' }, deps)
    expect(outcome).toMatchObject({ status: 'denied', rule: 'builtin:privilege' })
    expect(ran).toEqual([])
    expect(audit[0]).toMatchObject({ decision: 'denied', rule: 'builtin:privilege', exitCode: null })
  })

  it('ask: an unattended run is denied with the reason; chat waits for approval; approval runs it', async () => {
    const { audit, ran, deps, env } = setup()
    const unattended = await runPolicedCommand({ env, command: 'git push origin', mode: 'run' }, deps)
    expect(unattended).toMatchObject({ status: 'denied', rule: 'ask: git push *' })
    expect((unattended as { reason: string }).reason).toMatch(/unattended run cannot ask/)

    const asking = await runPolicedCommand({ env, command: 'git push origin', mode: 'chat' }, deps)
    expect(asking).toMatchObject({
      status: 'needs_approval',
      command: 'git push origin',
      rule: 'ask: git push *',
    })
    expect(ran).toEqual([])

    const approved = await runPolicedCommand(
      { env, command: 'git push origin', mode: 'chat', approved: true },
      deps,
    )
    expect(approved).toMatchObject({ status: 'ran', decision: 'approved' })
    expect(audit.map((e) => e.decision)).toEqual(['denied', 'approved'])
  })

  it('a person at the command box is not asked (same policy, minus ask)', async () => {
    const { deps, env } = setup()
    expect(await runPolicedCommand({ env, command: 'git push origin', mode: 'person' }, deps)).toMatchObject({
      status: 'ran',
      decision: 'approved',
    })
  })

  it('never writes a secret value into the audit, even when typed into the command', async () => {
    const { audit, deps, env } = setup()
    await runPolicedCommand({ env, command: 'echo tok-secret-1234', mode: 'person' }, deps)
    await runPolicedCommand({ env, command: 'sudo echo tok-secret-1234', mode: 'person' }, deps)
    expect(JSON.stringify(audit)).not.toContain('tok-secret-1234')
    expect(audit[0]!.command).toBe('echo ••••')
  })
})
