/**
 * Starting a job's run over the API and waiting for it, the way the integration files share it:
 * `runNow` asks for a run (expecting 202) and polls the run until it finishes; `waitForRun` polls a
 * run already asked for until its status passes a test (finished, by default). The poll is
 * `vi.waitFor`: its timeout is a hang guard, not a deadline the run must meet.
 */
import { expect, vi } from 'vitest'
import type { ApiClient } from './api-client.ts'
import { POLL } from './poll.ts'

/** A run as `GET /_agent-native/runs/:id` answers it. */
export type RunBody = { run: any; transcript: any[] }

/** The statuses a run leaves once it is done. */
export const finished = (status: string): boolean => !['queued', 'running'].includes(status)

export type WaitOptions = {
  /** The status to wait for (default: any finished one). */
  until?: (status: string) => boolean
  /** The hang guard in ms (default 20 s); runs that build an environment first want more. */
  timeout?: number
}

export async function waitForRun(
  client: ApiClient,
  runId: string,
  options: WaitOptions = {},
): Promise<RunBody> {
  const done = options.until ?? finished
  return vi.waitFor(
    async () => {
      const res = await client.get<RunBody>(`/_agent-native/runs/${runId}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      if (!done(res.body.run.status)) throw new Error(`run ${runId} is still ${res.body.run.status}`)
      return res.body
    },
    { ...POLL, timeout: options.timeout ?? POLL.timeout },
  )
}

/** Runs the job now as `client` and answers the finished run with its transcript. */
export async function runNow(
  client: ApiClient,
  jobId: string,
  options: Omit<WaitOptions, 'until'> = {},
): Promise<RunBody> {
  const res = await client.post(`/_agent-native/jobs/${jobId}/run`)
  expect(res.status, JSON.stringify(res.body)).toBe(202)
  return waitForRun(client, res.body.run.id, options)
}

/**
 * Creates a disabled job `name` whose instructions are `Do <name>.`, with any other fields in
 * `extra` (201 expected); answers its id.
 */
export async function pausedJob(
  client: ApiClient,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const made = await client.post('/_agent-native/jobs', {
    name,
    schedule: '0 7 * * *',
    instructions: `Do ${name}.`,
    enabled: false,
    ...extra,
  })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  return made.body.job.id
}
