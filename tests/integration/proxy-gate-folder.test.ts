import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const gateModule = resolve('server/environments/exec/proxy-gate.ts')

/** A process that opens gates (one left open, as a command cut off by a shutdown) and exits. */
const script = `
import { openGate } from ${JSON.stringify(gateModule)}
const opts = { hosts: [], upstream: { socket: '/nonexistent', authorization: '' }, onRefused() {} }
const closed = await openGate(opts)
closed.close()
const open = await openGate(opts)
console.log(JSON.stringify({ closed: closed.path, open: open.path }))
process.exit(0)
`

describe('the gates folder', () => {
  it('is gone once the process that made it exits', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script])
    const paths = JSON.parse(stdout) as { closed: string; open: string }
    expect(dirname(paths.open)).toMatch(/clockwork-gates-/)
    expect(existsSync(paths.open)).toBe(false)
    expect(existsSync(dirname(paths.open))).toBe(false)
  })
})
