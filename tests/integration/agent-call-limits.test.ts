/**
 * The limits of one run-code or cli call (issue 25 item 11), attacked as a member's agent would:
 * the fake model calls the tool with code that fills the disk, forks and allocates. Nothing it
 * writes may reach the host's disk past a small cap, and its processes and memory are capped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliRegistry } from '#server/cli/registered.ts'
import { usableBwrap } from '#server/sandbox/host-tools.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { TeamPerson } from '#tests/support/team.ts'

const bwrap = await usableBwrap()
const gitOffered = (await cliRegistry().describe()).some((c) => c.name === 'git' && c.available)

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: 'sk-ant-deployment-call-limits-0011' })
}, 240_000)
afterAll(() => agent?.close())

type Output = { ok: boolean; stdout: string; stderr: string; exitCode: number | null }

/** `person` asks in chat while the fake model calls `tool` with `input`; the tool's output. */
async function callTool(person: TeamPerson, tool: string, input: Record<string, unknown>): Promise<Output> {
  const marker = `call-${Math.random().toString(36).slice(2)}`
  agent.fake.replyWhen(marker, { content: [{ type: 'tool_use', name: tool, input }] }, { text: 'Done.' })
  const turn = await sendChat(person.client, { message: userText(`please ${marker}`) })
  expect(turn.status).toBe(200)
  const [step] = toolParts(turn.reply, tool)
  expect(step?.state, JSON.stringify(turn.reply?.parts)).toBe('output-available')
  return step.output as Output
}

/** A git alias runs a shell: the way a cli call runs arbitrary code. */
const gitShell = (script: string) => ({ name: 'git', args: ['-c', `alias.x=!${script}`, 'x'] })
const MiB = 1024 * 1024

describe.skipIf(!bwrap)('run-code', () => {
  it('cannot write 600 MiB to disk: one big file stops at the file-size cap', async () => {
    const out = await callTool(agent.team.member, 'run-code', {
      code: `import { appendFileSync, statSync } from 'node:fs'
        const chunk = Buffer.alloc(1024 * 1024, 1)
        process.on('exit', () => console.log('MiB', Math.floor(statSync('big.bin').size / 2 ** 20)))
        try { for (let i = 0; i < 600; i++) appendFileSync('big.bin', chunk) } catch (e) { console.log('stopped', e.code) }`,
      timeoutMs: 60_000,
    })
    const mib = Number(/MiB (\d+)/.exec(out.stdout)?.[1] ?? 0)
    expect(out.stdout).not.toContain('MiB 600')
    expect(mib).toBeLessThanOrEqual(64)
  }, 90_000)

  it('cannot write 600 MiB to disk in many small files: the scratch folder is full at its cap', async () => {
    const out = await callTool(agent.team.member, 'run-code', {
      code: `import { writeFileSync } from 'node:fs'
        const chunk = Buffer.alloc(1024 * 1024, 1)
        let n = 0
        try { for (; n < 600; n++) writeFileSync('f' + n, chunk) } catch (e) { console.log('stopped', e.code) }
        console.log('MiB', n)`,
      timeoutMs: 60_000,
    })
    expect(out.stdout).toMatch(/stopped ENOSPC/)
    expect(Number(/MiB (\d+)/.exec(out.stdout)?.[1])).toBeLessThanOrEqual(64)
  }, 90_000)
})

describe.skipIf(!gitOffered)('cli (git aliases run code by configuration)', () => {
  it('cannot start 300 processes', async () => {
    const out = await callTool(
      agent.team.member,
      'cli',
      gitShell(
        '(for i in $(seq 300); do sleep 30 & done) 2>/dev/null; n=0; for p in /proc/[0-9]*; do n=$((n+1)); done; echo running $n',
      ),
    )
    const running = Number(/running (\d+)/.exec(out.stdout)?.[1] ?? 0)
    expect(running).toBeGreaterThan(0)
    expect(running).toBeLessThanOrEqual(64)
  }, 90_000)

  it('cannot hold 1 GiB of memory', async () => {
    const out = await callTool(
      agent.team.member,
      'cli',
      gitShell(`python3 -c "a = bytearray(1024 * 2**20); print('allocated')"; echo "exit $?"`),
    )
    expect(out.stdout).not.toContain('allocated')
    expect(out.stdout).toMatch(/exit (137|1)\b/)
  }, 90_000)

  it('cannot write 600 MiB, neither as one file nor as many', async () => {
    const out = await callTool(
      agent.team.member,
      'cli',
      gitShell(
        'head -c 600M /dev/zero > big; echo big $(stat -c %s big); rm -f big; for i in $(seq 60); do head -c 10M /dev/zero > f$i || break; done; echo total $(du -sb . | cut -f1)',
      ),
    )
    const big = Number(/big (\d+)/.exec(out.stdout)?.[1] ?? -1)
    const total = Number(/total (\d+)/.exec(out.stdout)?.[1] ?? -1)
    expect(big).toBeGreaterThanOrEqual(0)
    expect(big).toBeLessThanOrEqual(64 * MiB)
    expect(total).toBeGreaterThan(0)
    expect(total).toBeLessThanOrEqual(65 * MiB)
  }, 90_000)
})
