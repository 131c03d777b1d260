/**
 * Runs a definition's `setup` in the environment's sandbox (exec.ts, the same one run_command uses)
 * as one persistent shell: the working directory and exported variables a serial step leaves are
 * where the next step starts. A nested list is a parallel group: its steps start together from the
 * same state, and what they change in the shell does not carry on. Each step is recorded (start,
 * end, exit code, the redacted tail of its output) and reported as it changes; the first failing
 * step stops the rest.
 *
 * The shell state passes between steps through files in `.clockwork/` that the step's own shell
 * writes on exit: `pwd`, and `export -p` minus what the sandbox itself set, with the environment's
 * secrets unset first, so no secret value is ever written there.
 *
 * Setup is a member's commands like any other: each step passes the same gate as run_command (the
 * org's switch, the command policy with the org's layer, the audit), judged on the step as written
 * (not on the wrapper around it). Nobody is there to approve a step, so `ask` means no, as in an
 * unattended run.
 */
import { join } from 'node:path'
import { newId } from '../../lib/ids.ts'
import { type CommandAudit, runPolicedCommand } from '../exec/commands.ts'
import type { Setup } from '../definition/definition-parts.ts'
import { type ExecEnvironment, type ExecOptions, runCommand } from '../exec/exec.ts'
import { folderInside, readInside, removeEntry, removeInside } from '../exec/inside.ts'
import { assertExecAllowed, type OrgExec } from '../definition/org-policy.ts'
import { isInside } from '../files/paths.ts'
import type { EffectivePolicy } from '../policy/policy-schema.ts'

export const STATE_DIR = '.clockwork'
const TAIL_CHARS = 2000
/** Largest state file read back: `export -p` of a sane shell is a few KiB. */
const MAX_STATE_BYTES = 1024 * 1024
/** How often a running step's output tail is reported: the environment page polls as often. */
const LIVE_TAIL_MS = 1_000

export type StepRecord = {
  index: number
  /** Position inside a parallel group. */
  member?: number
  command: string
  status: 'running' | 'ok' | 'failed'
  startedAt: string
  endedAt?: string
  exitCode?: number | null
  tail?: string
}

export type SetupRun = { ok: boolean; steps: StepRecord[] }

type ShellState = { cwd: string; exports: string }

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`

/** The script one step runs: restore the state, trap its exit to save the new one, the step. */
function script(root: string, state: ShellState, id: string, command: string, secretNames: string[]) {
  const unset = secretNames.length ? `unset ${secretNames.join(' ')}; ` : ''
  const out = join(root, STATE_DIR, id)
  return [
    `__cw_out=${quote(out)}`,
    `__cw_base=$( ${unset}export -p )`,
    `cd -- ${quote(state.cwd)} || exit 1`,
    state.exports,
    `trap '__cw_s=$?; { pwd > "$__cw_out.cwd"; ( ${unset}export -p ) | grep -vxF -f <(printf "%s\\n" "$__cw_base") > "$__cw_out.env"; } 2>/dev/null; exit $__cw_s' EXIT`,
    command,
  ].join('\n')
}

/** What every command passes: the org's switch, the policy (with the org's layer) and the audit. */
export type CommandGate = {
  org: OrgExec
  policy: EffectivePolicy
  audit: (entry: CommandAudit) => Promise<void>
  /** Whose setup it is (a person's id), for taking turns at the judge. */
  tenant?: string
}

export type SetupContext = {
  env: ExecEnvironment & { secrets: Record<string, string> }
  gate: CommandGate
  owner: { uid: number; gid: number }
  opts?: ExecOptions
  /** Variables the first step starts with (e.g. PACKAGE_MANAGER). */
  initialExports?: Record<string, string>
  onProgress?: (steps: StepRecord[]) => Promise<void> | void
}

/** Runs `setup` step by step. Never throws for a failing step: the result says which one failed. */
export async function runSetup(setup: Setup, ctx: SetupContext): Promise<SetupRun> {
  const root = ctx.env.root
  if (setup.length > 0) assertExecAllowed(ctx.gate.org)
  // Whatever a source left at .clockwork (a link to a host folder) goes; a fresh folder is made.
  await removeEntry(root, STATE_DIR)
  await folderInside(root, STATE_DIR, ctx.owner)
  const steps: StepRecord[] = []
  const initial = Object.entries(ctx.initialExports ?? {}).map(([k, v]) => `export ${k}=${quote(v)}`)
  let state: ShellState = { cwd: root, exports: initial.join('\n') }
  // Reports go out one after the other, each a copy taken when it was made, so a slow write of
  // an older one never lands after a newer one.
  let reported: Promise<void> = Promise.resolve()
  const report = () => {
    const copy = structuredClone(steps)
    reported = reported.then(() => ctx.onProgress?.(copy))
    return reported
  }
  const live = new Map<StepRecord, (chars: number) => string>()

  const runStep = async (record: StepRecord, from: ShellState): Promise<ShellState | undefined> => {
    const id = newId('step')
    const body = script(root, from, id, record.command, Object.keys(ctx.env.secrets))
    const opts = { ...ctx.opts, onOutput: (latest: (chars: number) => string) => live.set(record, latest) }
    try {
      // The step is judged and audited as written; what runs is the step inside its state wrapper.
      const outcome = await runPolicedCommand(
        {
          env: { ...ctx.env, policy: ctx.gate.policy },
          command: record.command,
          mode: 'run',
          tenant: ctx.gate.tenant,
        },
        { audit: ctx.gate.audit, exec: (env, _step, o) => runCommand(env, body, { ...o, ...opts }) },
      )
      if (outcome.status !== 'ran') {
        record.status = 'failed'
        record.exitCode = null
        record.tail = `Not run: ${outcome.reason}`
      } else {
        const result = outcome.result
        record.exitCode = result.exitCode
        record.status = result.exitCode === 0 ? 'ok' : 'failed'
        record.tail = [result.stdout, result.stderr].filter(Boolean).join('\n').slice(-TAIL_CHARS)
      }
    } catch (err) {
      record.status = 'failed'
      record.tail = (err as Error).message.slice(-TAIL_CHARS)
    } finally {
      live.delete(record)
    }
    record.endedAt = new Date().toISOString()
    return record.status === 'ok' ? readState(root, id) : undefined
  }

  // While steps run: their output so far, when it changed (skipped while a report is still going).
  let ticking = false
  const tick = () => {
    if (ticking) return
    let changed = false
    for (const [record, latest] of live) {
      const tail = latest(TAIL_CHARS)
      if (tail && tail !== record.tail) {
        record.tail = tail
        changed = true
      }
    }
    if (!changed) return
    ticking = true
    report()
      .catch(() => {}) // the next step's own report fails the same way and says so
      .finally(() => (ticking = false))
  }

  for (const [index, step] of setup.entries()) {
    const group = typeof step === 'string' ? [step] : step
    const records = group.map<StepRecord>((command, member) => ({
      index,
      ...(typeof step === 'string' ? {} : { member }),
      command,
      status: 'running',
      startedAt: new Date().toISOString(),
    }))
    steps.push(...records)
    await report()
    const ticker = setInterval(tick, LIVE_TAIL_MS)
    const after = await Promise.all(records.map((record) => runStep(record, state))).finally(() =>
      clearInterval(ticker),
    )
    await report()
    if (records.some((r) => r.status === 'failed')) return { ok: false, steps }
    if (typeof step === 'string' && after[0]) state = after[0]
  }
  await removeEntry(root, STATE_DIR)
  return { ok: true, steps }
}

/**
 * The state a step's shell saved on exit (then deleted); a cwd outside the folder falls back to it.
 * The step could have made either file a link to a host file: only regular files inside are read.
 */
async function readState(root: string, id: string): Promise<ShellState> {
  const base = `${STATE_DIR}/${id}`
  const cwd = ((await readInside(root, `${base}.cwd`, MAX_STATE_BYTES)) ?? root).trim()
  const exports = (await readInside(root, `${base}.env`, MAX_STATE_BYTES)) ?? ''
  await removeInside(root, `${base}.cwd`)
  await removeInside(root, `${base}.env`)
  return { cwd: isInside(root, cwd) || cwd === root ? cwd : root, exports: exports.trim() }
}
