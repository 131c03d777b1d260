/**
 * A run's socket answers that run's token only. Tokens are written into runs' folders inside
 * environments, which other people's commands may read: a command in one harness's sandbox that
 * learned another run's token must not reach that run's endpoint (its model key, its MCP servers)
 * through its own socket.
 */
import { request } from 'node:http'
import { afterAll, describe, expect, it } from 'vitest'
import { openOfflineSession } from '#tests/support/harness-session.ts'
import { serveOnSocket } from './socket.ts'

const mine = openOfflineSession()
const theirs = openOfflineSession()
const socket = await serveOnSocket(mine.token)
afterAll(async () => {
  mine.close()
  theirs.close()
  await socket.close()
})

/** Asks the hook through this socket with `token`; answers the status. */
const hook = (token: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request(
      {
        socketPath: socket.path,
        path: `/${token}/hook`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      },
    )
    req.on('error', reject)
    req.end(
      JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }),
    )
  })

describe('a run’s socket', () => {
  it('answers its own run’s token and refuses another live run’s', async () => {
    expect(await hook(mine.token)).toBe(200)
    expect(await hook(theirs.token)).toBe(401)
  })
})
