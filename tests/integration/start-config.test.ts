/**
 * A bad configuration stops the real server entry before it listens: exit 1, one line per
 * problem naming the variable, no stack trace. The process exits from the environment check,
 * so no build and no database are needed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { spawnEntry, type EnvOverrides } from '#tests/support/server-process.ts'

// Only a guard against a process that never exits (which would hang the suite): how fast it exits
// is not what these tests check. Below the tests' own timeout, so the child is always killed.
const HANG_GUARD_MS = 50_000

async function startAndExit(env: EnvOverrides) {
  const entry = spawnEntry({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env })
  let guard: NodeJS.Timeout | undefined
  const hung = new Promise<never>((_resolve, reject) => {
    guard = setTimeout(() => {
      entry.child.kill('SIGKILL')
      reject(new Error(`the server kept running on a bad environment; its output:\n${entry.output()}`))
    }, HANG_GUARD_MS)
  })
  const code = await Promise.race([entry.exited, hung]).finally(() => clearTimeout(guard))
  const output = entry.output()
  return { code, output, lines: output.trim().split('\n') }
}

function expectNoStackTrace(output: string) {
  expect(output).not.toMatch(/^\s+at /m)
  expect(output).not.toContain('ready at')
}

describe('start-up with a bad environment', { timeout: 60_000 }, () => {
  it('exits 1 in production without BETTER_AUTH_SECRET, naming it, rather than hanging', async () => {
    // A platform sees the failure as an exit, not a process that never becomes healthy.
    const { code, output } = await startAndExit({ NODE_ENV: 'production', BETTER_AUTH_SECRET: undefined })
    expect(code).toBe(1)
    expect(output).toMatch(/^ {2}BETTER_AUTH_SECRET: required in production/m)
    expectNoStackTrace(output)
  })

  it('prints one line per problem, each naming its variable', async () => {
    const { code, output, lines } = await startAndExit({
      PORT: 'abc',
      DATABASE_URL: 'mysql://localhost/x',
      AGENT_MODEL: 'openai-compatible:llama',
      OPENAI_COMPATIBLE_BASE_URL: undefined,
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/no-version',
    })
    expect(code).toBe(1)
    const problems = lines.filter((line) => line.startsWith('  '))
    expect(problems.map((line) => line.trim().split(':')[0]).sort()).toEqual([
      'ANTHROPIC_BASE_URL',
      'DATABASE_URL',
      'OPENAI_COMPATIBLE_BASE_URL',
      'PORT',
    ])
    expectNoStackTrace(output)
  })

  it('checks values read from the env file too', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-env-'))
    writeFileSync(path.join(dir, '.env'), 'SCHEDULER_CONCURRENCY=lots\n')
    const { code, output } = await startAndExit({
      ENV_FILE: path.join(dir, '.env'),
      SCHEDULER_CONCURRENCY: undefined,
    })
    expect(code).toBe(1)
    expect(output).toMatch(/^ {2}SCHEDULER_CONCURRENCY: /m)
    expectNoStackTrace(output)
  })

  it('names ENV_FILE when it points at no file', async () => {
    const { code, output } = await startAndExit({ ENV_FILE: path.join(os.tmpdir(), 'no-such-clockwork.env') })
    expect(code).toBe(1)
    expect(output).toMatch(/^ {2}ENV_FILE: .* does not exist/m)
  })
})
