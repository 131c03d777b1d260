/** Adapter selection: registered → AGENT_NATIVE_SANDBOX → local, and the start-up report. */
import { afterEach, describe, expect, it } from 'vitest'
import { resetEnvCache } from '../env.ts'
import type { SandboxAdapter } from './adapter.ts'
import { getSandboxAdapter, registerSandboxAdapter, reportSandboxIsolation } from './index.ts'
import { LocalChildProcessAdapter } from './local-child-process.ts'

const custom: SandboxAdapter = {
  id: 'custom',
  run: async () => ({ stdout: 'custom', stderr: '', exitCode: 0, timedOut: false }),
}

afterEach(() => {
  registerSandboxAdapter(null)
  delete process.env.AGENT_NATIVE_SANDBOX
  resetEnvCache()
})

function withSandboxEnv(value: string | undefined) {
  if (value === undefined) delete process.env.AGENT_NATIVE_SANDBOX
  else process.env.AGENT_NATIVE_SANDBOX = value
  resetEnvCache()
}

describe('getSandboxAdapter', () => {
  it('defaults to the local child-process adapter', () => {
    withSandboxEnv(undefined)
    expect(getSandboxAdapter().id).toBe('local-child-process')
  })

  it('follows AGENT_NATIVE_SANDBOX', () => {
    withSandboxEnv('docker')
    expect(getSandboxAdapter().id).toBe('docker')
    withSandboxEnv('local')
    expect(getSandboxAdapter().id).toBe('local-child-process')
  })

  it('prefers a registered adapter over the env, and null goes back', () => {
    withSandboxEnv('docker')
    registerSandboxAdapter(custom)
    expect(getSandboxAdapter()).toBe(custom)
    registerSandboxAdapter(null)
    expect(getSandboxAdapter().id).toBe('docker')
  })

  it('refuses an unknown AGENT_NATIVE_SANDBOX instead of falling back', () => {
    withSandboxEnv('bogus')
    expect(() => getSandboxAdapter()).toThrow(/AGENT_NATIVE_SANDBOX/)
  })
})

describe('reportSandboxIsolation', () => {
  const capture = () => {
    const lines: { level: string; msg: string }[] = []
    return {
      lines,
      log: {
        info: (_o: object, msg: string) => lines.push({ level: 'info', msg }),
        warn: (_o: object, msg: string) => lines.push({ level: 'warn', msg }),
      },
    }
  }

  it('warns when bubblewrap is missing and the isolation is reduced', async () => {
    registerSandboxAdapter(new LocalChildProcessAdapter({ bwrap: 'off' }))
    const { lines, log } = capture()
    expect((await reportSandboxIsolation(log)).level).toBe('reduced')
    expect(lines).toEqual([{ level: 'warn', msg: expect.stringMatching(/reduced.*network/) }])
  })

  it('warns about a custom adapter that does not describe itself', async () => {
    registerSandboxAdapter(custom)
    const { lines, log } = capture()
    expect(await reportSandboxIsolation(log)).toMatchObject({ adapter: 'custom', level: 'unknown' })
    expect(lines[0]!.level).toBe('warn')
  })
})
