/** `AGENT_NATIVE_SANDBOX=bogus npm start` must stop with a message naming the variable. */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'

describe('start-up with a bad AGENT_NATIVE_SANDBOX', () => {
  it('exits non-zero naming the variable, without falling back to local', async () => {
    const child = spawn(process.execPath, ['build/server/index.js'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        NODE_ENV: 'production',
        PORT: '1',
        BETTER_AUTH_SECRET: 'startup-test-secret-startup-test-secret',
        AGENT_NATIVE_SANDBOX: 'bogus',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout!.on('data', (c) => (output += c))
    child.stderr!.on('data', (c) => (output += c))
    const [code] = await once(child, 'exit')
    expect(code).toBe(1)
    expect(output).toMatch(/AGENT_NATIVE_SANDBOX: must be local or docker/)
  })
})
