/**
 * The set-up the agent's integration test files share: the fake model (fake-anthropic.ts) on a
 * real port, a test app pointed at it with the deployment's key, a signed-up team (team.ts) and,
 * when asked, the real scheduler with the agent executor and a temp folder for environments.
 * Start it in the file's beforeAll (with the file's own timeout) and `close()` it in afterAll: it
 * ends what it started in reverse order, and ends it too when starting fails half way.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createAgentExecutor } from '#server/agent/run-executor.ts'
import { startScheduler, type RunningScheduler, type SchedulerOptions } from '#server/scheduler/scheduler.ts'
import { startFakeAnthropic, type FakeAnthropic, type FakeReply } from './fake-anthropic.ts'
import { createTeam, type Team } from './team.ts'
import { startTestApp, type TestApp } from './test-app.ts'

export type AgentAppOptions = {
  /** The deployment's key (ANTHROPIC_API_KEY); the fake model answers 401 to any other unless `anyKey`. */
  key: string
  /** The fake model takes every key: for files that spend keys people and organisations store. */
  anyKey?: boolean
  /** What the fake model answers once the scripted replies run out (default: the text "Done."). */
  fallback?: FakeReply
  /**
   * More server env (limits, hosts, …), applied last; a function is given the `environmentsDir`
   * folder, for settings that live beside the environments (snapshots, local repositories).
   */
  env?: Record<string, string> | ((dir: string) => Record<string, string>)
  /** Run the server on PGlite instead of its own Postgres database. */
  pglite?: boolean
  /** Sign up a team (default). `false` for files that sign up their own people. */
  team?: boolean
  /** Start the real scheduler with the agent executor; an object adds to its options (e.g. leaseMs). */
  scheduler?: boolean | Omit<SchedulerOptions, 'handle' | 'executor'>
  /** Make a temp folder with this name prefix; ENVIRONMENTS_DIR is its `environments` folder. */
  environmentsDir?: string
}

export type AgentApp<WithTeam extends boolean = true> = {
  app: TestApp
  fake: FakeAnthropic
  team: WithTeam extends false ? undefined : Team
  scheduler?: RunningScheduler
  /** The temp folder made for `environmentsDir`, removed by close(). */
  dir?: string
  close(): Promise<void>
}

const required = (dir: string | undefined): string => {
  if (!dir) throw new Error('startAgentApp: an env function needs environmentsDir')
  return dir
}

// The model the tests' token prices assume (also the server's default).
const MODEL = 'anthropic:claude-sonnet-4-5'

export async function startAgentApp<WithTeam extends boolean = true>(
  options: AgentAppOptions & { team?: WithTeam },
): Promise<AgentApp<WithTeam>> {
  const closers: (() => unknown)[] = []
  const close = async () => {
    for (const end of closers.splice(0).reverse()) await end()
  }
  try {
    let dir: string | undefined
    if (options.environmentsDir) {
      const made = mkdtempSync(path.join(os.tmpdir(), options.environmentsDir))
      chmodSync(made, 0o711) // the sandbox uid must be able to enter it
      closers.push(() => rmSync(made, { recursive: true, force: true }))
      dir = made
    }
    const fake = await startFakeAnthropic({
      apiKey: options.anyKey ? undefined : options.key,
      fallback: options.fallback ?? { text: 'Done.' },
    })
    closers.push(() => fake.close())
    const app = await startTestApp({
      pglite: options.pglite,
      env: {
        ANTHROPIC_API_KEY: options.key,
        ANTHROPIC_BASE_URL: fake.baseURL,
        AGENT_MODEL: MODEL,
        ...(dir ? { ENVIRONMENTS_DIR: path.join(dir, 'environments') } : {}),
        ...(typeof options.env === 'function' ? options.env(required(dir)) : options.env),
      },
    })
    closers.push(() => app.close())
    const team = (options.team === false ? undefined : await createTeam(app)) as AgentApp<WithTeam>['team']
    let scheduler: RunningScheduler | undefined
    if (options.scheduler) {
      const extra = typeof options.scheduler === 'object' ? options.scheduler : {}
      const running = await startScheduler({
        handle: app.server.db,
        executor: createAgentExecutor(),
        graceMs: 1_000,
        ...extra,
      })
      closers.push(() => running.stop())
      scheduler = running
    }
    return { app, fake, team, scheduler, dir, close }
  } catch (error) {
    await close()
    throw error
  }
}
