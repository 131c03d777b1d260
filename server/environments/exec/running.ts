/**
 * How many commands one person has running at once on this instance. Each running command is a
 * process tree (sandboxed, or a container) and a watch that lists its folder every second with a
 * `find` child spawned from the server's loop; a member who sent two hundred `sleep 600` at once
 * had all two hundred running. A person's commands past `USER_MAX_RUNNING_COMMANDS` wait for one
 * of theirs to end (a job run's agent and the command box alike just take longer), and past four
 * times that many waiting the next is refused with a 429. Only commands the policy let through
 * come here: a refused line costs nothing (decision 0405).
 */
import { env } from '../../env.ts'
import { HttpError } from '../../lib/errors.ts'

/** How many of a person's commands may wait for a turn, per command that may run. */
const WAITING_PER_RUNNING = 4

type Lane = { running: number; waiting: (() => void)[] }

const lanes = new Map<string, Lane>()

/** Runs `work` as one of `person`'s running commands, once they have fewer than the limit. */
export async function asRunningCommand<T>(person: string, work: () => Promise<T>): Promise<T> {
  const limit = env().USER_MAX_RUNNING_COMMANDS
  const lane = lanes.get(person) ?? { running: 0, waiting: [] }
  lanes.set(person, lane)
  if (lane.running >= limit) {
    if (lane.waiting.length >= limit * WAITING_PER_RUNNING) {
      throw new HttpError(
        429,
        'too_many_commands',
        `You have ${limit} commands running and ${lane.waiting.length} waiting; wait for some to end`,
      )
    }
    // The command that ends hands its turn over: `running` stays counted for this one.
    await new Promise<void>((resolve) => lane.waiting.push(resolve))
  } else lane.running++
  try {
    return await work()
  } finally {
    const next = lane.waiting.shift()
    if (next) next()
    else if (--lane.running === 0) lanes.delete(person)
  }
}
