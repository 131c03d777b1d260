import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { JudgePool, judgeCommand } from './judge.ts'
import { decideCommand, MAX_COMMAND_LINE, mergePolicies } from './policy.ts'

const STRICT = {
  commands: { allow: ['ls *', 'echo *'], ask: ['git push *'], deny: ['rm *', 'curl *'] },
  default: 'ask' as const,
}
const MERGED = mergePolicies({ commands: { deny: ['npm publish *'] }, default: 'allow' }, STRICT)
/** Nested substitutions, each level judged: a line the worker takes a while over. */
const NESTED = 'echo $(a $(a $(a $(a $(a $(a $(a $(a x)))))))); '

describe('judgeCommand', () => {
  it('answers as decideCommand does, for plain and merged policies alike', async () => {
    const lines = [
      'ls -la',
      'rm -rf /',
      'git push origin main',
      'python3 app.py',
      'npm publish --tag next',
      'sudo ls',
      'echo "unclosed',
      `$(${'"$('.repeat(20)}x${')"'.repeat(20)})`,
    ]
    for (const policy of [{}, STRICT, MERGED]) {
      for (const line of lines) {
        expect(await judgeCommand(policy, line), `${line} under ${JSON.stringify(policy)}`).toEqual(
          decideCommand(policy, line),
        )
      }
    }
  })

  it('gives each of many lines judged at once its own answer', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? `rm file${i}` : `ls dir${i}`))
    const decisions = await Promise.all(lines.map((line) => judgeCommand(STRICT, line)))
    expect(decisions.map((d) => d.command)).toEqual(lines)
    expect(decisions.map((d) => d.decision)).toEqual(
      lines.map((line) => (line.startsWith('rm') ? 'deny' : 'allow')),
    )
  })

  it('refuses a line it cannot judge by the deadline, and goes on judging the next', async () => {
    const wide = `sudo x; ${NESTED.repeat(300)}`
    expect(await judgeCommand({}, wide, { timeoutMs: 1 })).toEqual({
      decision: 'deny',
      rule: 'builtin:too-complex',
      reason: 'the command line took longer than 0.001 s to judge; split it up',
    })
    // The worker that ran over is replaced: the same line, given time, is judged in full.
    expect(await judgeCommand({}, wide)).toMatchObject({ decision: 'deny', rule: 'builtin:privilege' })
  })

  it('counts a deadline from when a worker takes the line, not while the worker loads', async () => {
    // A fresh pool: its first worker loads its modules (from source, through tsx: about 0.4 s on
    // a quiet machine, seconds on a busy one) before it can judge anything.
    const fresh = new JudgePool()
    expect(await fresh.judge('', STRICT, 'ls -la', 200)).toEqual(decideCommand(STRICT, 'ls -la'))
  })

  it('fails each waiting line once when its workers cannot load, rather than starting them forever', async () => {
    // A real worker that dies as it loads, as one would with a broken build or a missing module.
    let started = 0
    const broken = new JudgePool({
      size: 2,
      startWorker: () => {
        started++
        return new Worker('throw new Error("the judge cannot load")', { eval: true })
      },
    })
    const results = await Promise.allSettled(
      ['ls', 'pwd', 'whoami'].map((line) => broken.judge('', STRICT, line, 1_000)),
    )
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected'])
    expect(String((results[0] as PromiseRejectedResult).reason)).toContain('the judge cannot load')
    expect(started).toBe(3)
  })

  it("judges another person's line before the rest of one person's flood", async () => {
    const wide = `sudo x; ${NESTED.repeat(300)}`
    let settled = 0
    const flood = Array.from({ length: 12 }, () =>
      judgeCommand({}, wide, { tenant: 'mallory' }).then((decision) => {
        settled++
        return decision
      }),
    )
    expect(await judgeCommand({}, 'ls', { tenant: 'alice' })).toMatchObject({ decision: 'allow' })
    // First come, first served would have judged all twelve first; taking the people in turn, at
    // most the lines already being judged (one per worker, at most four) come before Alice's.
    expect(settled).toBeLessThanOrEqual(6)
    for (const decision of await Promise.all(flood)) expect(decision.rule).toBe('builtin:privilege')
  })

  it("judges a shell's 60,000-letter flag word in well under a second", async () => {
    // `bash -ccc…c1 run.sh`: the flag is not `-c`, so the file is what runs. The flag's check
    // backtracked quadratically (about three seconds); the deadline here would have refused it.
    const line = `bash -${'c'.repeat(60_000)}1 run.sh`
    expect(await judgeCommand({}, line, { timeoutMs: 1_000 })).toEqual(decideCommand({}, line))
    expect(decideCommand({}, 'bash -lc "ls"')).toMatchObject({ decision: 'ask', rule: 'builtin:inline-code' })
  })

  it('refuses a line longer than the policy judges without sending it to a worker', async () => {
    const decision = await judgeCommand({}, 'a'.repeat(MAX_COMMAND_LINE + 1))
    expect(decision).toEqual(decideCommand({}, 'a'.repeat(MAX_COMMAND_LINE + 1)))
    expect(decision.rule).toBe('builtin:too-long')
  })
})
