/**
 * Judging a command line off the event loop. `decideCommand` is bounded (a walk budget, a nesting
 * limit, a match budget), but bounded is not short: a 64 KiB line against a member's 600 patterns
 * may take half a second, and forty such lines sent at once held the loop long enough that
 * `/_agent-native/health` stopped answering for every tenant. So every line is judged in a small
 * pool of worker threads, each judgement under a deadline after which its worker is terminated and
 * the line refused as too complex, with a capped heap.
 *
 * The pool is shared by the whole process and takes the people waiting in turn, one line each: a
 * member who sends a hundred lines at once waits for them, while everyone else's next line waits
 * for at most one of theirs.
 */
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import {
  type CommandDecision,
  type CommandPolicyInput,
  type EffectivePolicy,
  MAX_COMMAND_LINE,
} from './policy.ts'

/** Longest one judgement may take, from the moment a worker starts on it. */
export const JUDGE_TIMEOUT_MS = 5_000
/** A worker's heap ceiling: the walk of a 64 KiB line needs a few megabytes. */
const JUDGE_HEAP_MB = 256
/** Workers alive at most: one core stays with the event loop. */
const POOL_SIZE = Math.max(1, Math.min(4, availableParallelism() - 1))

export type JudgeOptions = {
  timeoutMs?: number
  /** Whose line this is (a person's id): the pool takes the people waiting in turn. */
  tenant?: string
}

/** What a judgement is sent as, and what comes back (see judge-worker.ts). */
export type JudgeRequest = { id: number; policy: EffectivePolicy | CommandPolicyInput; line: string }
export type JudgeReply =
  | { id: number; decision: CommandDecision }
  | { id: number; error: string }
  /** Sent once, when the worker has loaded and listens. */
  | { ready: true }

/**
 * `decideCommand`'s answer, worked out in a worker thread. A line the worker cannot judge within
 * the deadline or its heap is denied as `builtin:too-complex`; any other failure rejects.
 */
export function judgeCommand(
  policy: EffectivePolicy | CommandPolicyInput,
  line: string,
  { timeoutMs = JUDGE_TIMEOUT_MS, tenant = '' }: JudgeOptions = {},
): Promise<CommandDecision> {
  // Refused without a worker: copying a huge line to a thread only to refuse it there is waste.
  if (line.length > MAX_COMMAND_LINE) {
    return Promise.resolve({
      decision: 'deny',
      rule: 'builtin:too-long',
      reason: `the command line is longer than ${MAX_COMMAND_LINE} characters`,
    })
  }
  return pool.judge(tenant, policy, line, timeoutMs)
}

function tooComplexToJudge(why: string): CommandDecision {
  return { decision: 'deny', rule: 'builtin:too-complex', reason: `${why}; split it up` }
}

type Job = {
  policy: EffectivePolicy | CommandPolicyInput
  line: string
  timeoutMs: number
  resolve: (decision: CommandDecision) => void
  reject: (err: Error) => void
}

type Active = { id: number; job: Job; timer: NodeJS.Timeout }

export class JudgePool {
  private readonly startWorker: () => Worker
  private readonly size: number
  /** The lines waiting, by tenant, the tenants in the order they are next served. */
  private readonly waiting = new Map<string, Job[]>()
  private queued = 0
  private readonly idle: Worker[] = []
  /** Every live worker, with its judgement when it has one. */
  private readonly active = new Map<Worker, Active | undefined>()
  /** Workers still loading: a line's deadline starts only once one takes it. */
  private readonly starting = new Set<Worker>()
  private nextId = 1

  /** The process has one pool (below); a test may start its own with other workers. */
  constructor({ startWorker = startJudgeWorker, size = POOL_SIZE } = {}) {
    this.startWorker = startWorker
    this.size = size
  }

  judge(
    tenant: string,
    policy: EffectivePolicy | CommandPolicyInput,
    line: string,
    timeoutMs: number,
  ): Promise<CommandDecision> {
    return new Promise((resolve, reject) => this.submit(tenant, { policy, line, timeoutMs, resolve, reject }))
  }

  private submit(tenant: string, job: Job): void {
    const lane = this.waiting.get(tenant)
    if (lane) lane.push(job)
    else this.waiting.set(tenant, [job])
    this.queued++
    this.pump()
  }

  private pump(): void {
    while (this.queued > 0 && this.idle.length > 0) this.start(this.idle.pop()!, this.next())
    // A worker still loading takes the next line once it says it is ready.
    while (this.queued > this.starting.size && this.active.size < this.size) this.spawn()
  }

  /** The first line of the tenant whose turn it is; that tenant then goes to the back. */
  private next(): Job {
    const [tenant, lane] = this.waiting.entries().next().value!
    const job = lane.shift()!
    this.waiting.delete(tenant)
    if (lane.length > 0) this.waiting.set(tenant, lane)
    this.queued--
    return job
  }

  private start(worker: Worker, job: Job): void {
    const id = this.nextId++
    const timer = setTimeout(() => {
      this.finish(worker, id, true)
      job.resolve(tooComplexToJudge(`the command line took longer than ${job.timeoutMs / 1000} s to judge`))
    }, job.timeoutMs)
    this.active.set(worker, { id, job, timer })
    const request: JudgeRequest = { id, policy: job.policy, line: job.line }
    worker.postMessage(request)
  }

  /** Ends the worker's current judgement; a worker that failed or ran over is replaced. */
  private finish(worker: Worker, id: number, discard: boolean): Job | undefined {
    const current = this.active.get(worker)
    if (!current || current.id !== id) return undefined
    clearTimeout(current.timer)
    if (discard) {
      this.active.delete(worker)
      void worker.terminate()
    } else {
      this.active.set(worker, undefined)
      this.idle.push(worker)
    }
    queueMicrotask(() => this.pump())
    return current.job
  }

  private spawn(): void {
    const worker = this.startWorker()
    this.active.set(worker, undefined)
    this.starting.add(worker)
    worker.on('message', (reply: JudgeReply) => {
      if ('ready' in reply) {
        this.starting.delete(worker)
        this.idle.push(worker)
        return this.pump()
      }
      const job = this.finish(worker, reply.id, false)
      if (!job) return
      if ('error' in reply) job.reject(new Error(`judging the command line failed: ${reply.error}`))
      else job.resolve(reply.decision)
    })
    worker.on('error', (err: Error & { code?: string }) => {
      if (this.failedToStart(worker, err)) return
      const current = this.active.get(worker)
      const job = current && this.finish(worker, current.id, true)
      this.forget(worker)
      if (!job) return
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        job.resolve(tooComplexToJudge('the command line needs too much memory to judge'))
      } else job.reject(err)
    })
    worker.on('exit', (code) => {
      if (this.failedToStart(worker, new Error(`the worker judging command lines exited (${code})`))) return
      const current = this.active.get(worker)
      const job = current && this.finish(worker, current.id, true)
      this.forget(worker)
      job?.reject(new Error(`the worker judging the command line exited (${code})`))
    })
    // After the listeners: an idle worker must not keep the process alive (a judgement's timer does).
    worker.unref()
  }

  /**
   * A worker that died before it was ready fails the line it would have taken, so a worker that
   * cannot load at all fails each line once instead of being started again forever.
   */
  private failedToStart(worker: Worker, err: Error): boolean {
    if (!this.starting.delete(worker)) return false
    this.forget(worker)
    if (this.queued > 0) this.next().reject(new Error(`judging the command line failed: ${err.message}`))
    return true
  }

  private forget(worker: Worker): void {
    this.active.delete(worker)
    const at = this.idle.indexOf(worker)
    if (at >= 0) this.idle.splice(at, 1)
    queueMicrotask(() => this.pump())
  }
}

// The compiled server (build/server/index.js) has the worker bundled beside it as
// build/judge-worker.js (config/build-server.ts); held in a variable so that Vite leaves it be.
const COMPILED_WORKER = '../judge-worker.js'

function startJudgeWorker(): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: JUDGE_HEAP_MB }
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL(COMPILED_WORKER, import.meta.url), { resourceLimits })
  }
  // From source (tests, `npm run dev`): the worker loads TypeScript through tsx's loader, which
  // only its ES module API can register from an eval'd worker.
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href
  const entry = new URL('./judge-worker.ts', import.meta.url).href
  const source = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(source, { eval: true, resourceLimits })
}

const pool = new JudgePool()
