/**
 * The worker thread behind judge.ts: answers each request with `decideCommand`'s decision, one at
 * a time. Bundled as build/judge-worker.js for the compiled server.
 */
import { parentPort } from 'node:worker_threads'
import type { JudgeReply, JudgeRequest } from './judge.ts'
import { decideCommand } from './policy.ts'

const port = parentPort
if (!port) throw new Error('judge-worker.ts runs as a worker thread (see judge.ts)')

port.on('message', ({ id, policy, line }: JudgeRequest) => {
  let reply: JudgeReply
  try {
    reply = { id, decision: decideCommand(policy, line) }
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) }
  }
  port.postMessage(reply)
})
port.postMessage({ ready: true } satisfies JudgeReply)
