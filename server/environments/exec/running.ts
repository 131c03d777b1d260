/**
 * How many commands run at once on this instance, per person and per organisation. Each running
 * command is a process tree (sandboxed, or a container) and a watch that lists its folder every
 * second with a `find` child spawned from the server's loop; a member who sent two hundred
 * `sleep 600` at once had all two hundred running. A person's commands past
 * `USER_MAX_RUNNING_COMMANDS` wait for one of theirs to end, and an organisation's past
 * `ORG_MAX_RUNNING_COMMANDS` wait for one of the organisation's (decision 0485: with open sign-up
 * an owner can invite as many accounts of their own as they like, each with its own share). A job
 * run's agent, a chat's and the command box alike just take longer; past four times the limit
 * waiting, the next is refused with a 429. Only commands the policy let through come here: a
 * refused line costs nothing (decision 0405). A harness run is one running command for its whole
 * session (harness/run.ts).
 */
import { env } from '../../env.ts'
import { HttpError } from '../../lib/errors.ts'

/** How many commands may wait for a turn, per command that may run. */
const WAITING_PER_RUNNING = 4

type Lane = { running: number; waiting: (() => void)[] }

/** One set of lanes: a limit, and what the refusal says past the waiting room. */
type Lanes = {
  lanes: Map<string, Lane>
  limit: () => number
  refusal: (limit: number, waiting: number) => string
}

const people: Lanes = {
  lanes: new Map(),
  limit: () => env().USER_MAX_RUNNING_COMMANDS,
  refusal: (limit, waiting) =>
    `You have ${limit} commands running and ${waiting} waiting; wait for some to end`,
}

const orgs: Lanes = {
  lanes: new Map(),
  limit: () => env().ORG_MAX_RUNNING_COMMANDS,
  refusal: (limit, waiting) =>
    `Your organisation has ${limit} commands running, its limit at once, and ${waiting} waiting; ` +
    'wait for some to end',
}

/** Waits for a turn in `key`'s lane (or refuses past the waiting room); answers how to give it back. */
async function turn(of: Lanes, key: string): Promise<() => void> {
  const limit = of.limit()
  const lane = of.lanes.get(key) ?? { running: 0, waiting: [] }
  of.lanes.set(key, lane)
  if (lane.running >= limit) {
    if (lane.waiting.length >= limit * WAITING_PER_RUNNING)
      throw new HttpError(429, 'too_many_commands', of.refusal(limit, lane.waiting.length))
    // The command that ends hands its turn over: `running` stays counted for this one.
    await new Promise<void>((resolve) => lane.waiting.push(resolve))
  } else lane.running++
  return () => {
    const next = lane.waiting.shift()
    if (next) next()
    else if (--lane.running === 0) of.lanes.delete(key)
  }
}

/**
 * Runs `work` as one of `person`'s, and of their organisation's, running commands, once both have
 * fewer than their limit. The person's turn comes first: a person's own queue never holds one of
 * the organisation's turns while it waits.
 */
export async function asRunningCommand<T>(
  who: { person: string; org: string },
  work: () => Promise<T>,
): Promise<T> {
  const personDone = await turn(people, who.person)
  let orgDone: () => void
  try {
    orgDone = await turn(orgs, who.org)
  } catch (err) {
    personDone()
    throw err
  }
  try {
    return await work()
  } finally {
    orgDone()
    personDone()
  }
}
