import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prepareFolder } from '../exec/identity.ts'
import { DEFAULT_POLICY } from '../policy/policy.ts'
import { runSetup, type StepRecord } from './setup-shell.ts'

let base: string
let root: string
let owner: { uid: number; gid: number }
const SECRET = 'setup-secret-value-4411'

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'env-setup-'))
  await chmod(base, 0o711)
  root = join(base, 'environments', 'e1')
  owner = await prepareFolder(root)
})
afterAll(() => rm(base, { recursive: true, force: true }))

const ORG = { exec: true, execRuntimes: ['node' as const, 'python' as const], execLimits: {}, execDeny: [] }
const ctx = (progress: StepRecord[][] = []) => ({
  env: { root, secrets: { API_TOKEN: SECRET } },
  gate: { org: ORG, policy: DEFAULT_POLICY, audit: async () => {} },
  owner,
  onProgress: (steps: StepRecord[]) => void progress.push(steps),
})
const span = (s: StepRecord) => [Date.parse(s.startedAt), Date.parse(s.endedAt!)] as const

describe('runSetup', () => {
  it('carries cwd and exported variables between serial steps, never secrets', async () => {
    const progress: StepRecord[][] = []
    const run = await runSetup(
      [
        'mkdir -p sub/deeper && cd sub && export GREETING=hello && LOCAL_ONLY=x',
        'pwd > where.txt; echo "$GREETING/${LOCAL_ONLY:-unset}" > what.txt',
        'export API_TOKEN=changed-but-not-kept; echo "$API_TOKEN" > /dev/null',
      ],
      ctx(progress),
    )
    expect(run.ok).toBe(true)
    expect(await readFile(join(root, 'sub', 'where.txt'), 'utf8')).toBe(`${join(root, 'sub')}\n`)
    expect(await readFile(join(root, 'sub', 'what.txt'), 'utf8')).toBe('hello/unset\n')
    expect(run.steps.map((s) => [s.index, s.status, s.exitCode])).toEqual([
      [0, 'ok', 0],
      [1, 'ok', 0],
      [2, 'ok', 0],
    ])
    // Progress was reported while steps ran, and the shell's state files are gone.
    expect(progress.some((p) => p.at(-1)?.status === 'running')).toBe(true)
    expect(existsSync(join(root, '.clockwork'))).toBe(false)
  })

  it('runs a nested list in parallel: both sleeps overlap', async () => {
    const run = await runSetup(['true', ['sleep 1 && echo a', 'sleep 1 && echo b'], 'echo after'], ctx())
    expect(run.ok).toBe(true)
    const [a, b] = run.steps.filter((s) => s.index === 1)
    expect([a!.member, b!.member]).toEqual([0, 1])
    // Overlap: each started before the other ended.
    expect(span(a!)[0]).toBeLessThan(span(b!)[1])
    expect(span(b!)[0]).toBeLessThan(span(a!)[1])
    // The step after the group started only when both had ended.
    const after = run.steps.find((s) => s.index === 2)!
    expect(Date.parse(after.startedAt)).toBeGreaterThanOrEqual(Math.max(span(a!)[1], span(b!)[1]))
  })

  it('stops at a failing step with its output, redacted', async () => {
    const run = await runSetup(
      ['echo "token is $API_TOKEN"; echo broken >&2; exit 3', 'touch never.txt'],
      ctx(),
    )
    expect(run.ok).toBe(false)
    expect(run.steps).toHaveLength(1)
    expect(run.steps[0]).toMatchObject({ status: 'failed', exitCode: 3 })
    expect(run.steps[0]!.tail).toMatch(/token is ••••/)
    expect(run.steps[0]!.tail).toMatch(/broken/)
    expect(run.steps[0]!.tail).not.toContain(SECRET)
    expect(existsSync(join(root, 'never.txt'))).toBe(false)
  })
})
