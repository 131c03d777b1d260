/**
 * A member set a command going that never ends (a `sleep`, a miner), then was removed, or an admin
 * did so and was demoted (decision 0476). Before, the command ran on to its timeout: the next tool
 * call of the run or turn was refused, but nothing reached the command, and an admin
 * can cancel only shared jobs' runs, so a personal job's run or a chat turn could not be stopped at
 * all. Now the departure cancels the person's runs and ends their chat turns, and each kills what it
 * started: the process is gone from the host within moments. Real sandbox (bubblewrap, or a Docker
 * container whose processes the host's `ps` lists too), real HTTP, the fake model.
 */
import { execFileSync } from 'node:child_process'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { streamChat } from '#tests/support/chat-stream.ts'
import { dockerForTests } from '#tests/support/docker.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import { createTeam, type Team, type TeamPerson } from '#tests/support/team.ts'

const ORG = '/_agent-native/auth/organization'
const R = '/_agent-native/resources'
/** A sandbox or container starting: a hang guard, not a deadline. */
const STARTED = { timeout: 60_000, interval: 100 }
/** The departure reaching the command: moments (a notification, a kill). */
const GONE = { timeout: 10_000, interval: 50 }

const docker = await dockerForTests()

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({
    key: 'sk-ant-departure-commands',
    environmentsDir: 'clockwork-departure-commands-',
    // Heartbeat far away: the cancel must reach the run through the jobs-changed notification.
    scheduler: { leaseMs: 600_000 },
    env: docker.ok ? { SANDBOX_DOCKER_IMAGE: docker.image } : {},
  })
}, 120_000)
afterAll(() => agent?.close())

/** The host's processes whose command line holds `marker`. */
const processesWith = (marker: string) =>
  execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker))

const memberIdOf = async (team: Team, userId: string): Promise<string> => {
  const { body } = await team.owner.client.get(`${ORG}/list-members?organizationId=${team.orgId}`)
  return body.members.find((m: { userId: string }) => m.userId === userId).id
}

const departures = {
  'is removed': {
    slug: 'removed',
    who: (team: Team) => team.member,
    depart: (team: Team) =>
      team.owner.client.post(`${ORG}/remove-member`, {
        memberIdOrEmail: team.member.email,
        organizationId: team.orgId,
      }),
    why: 'its person left the organisation',
  },
  'is demoted from admin to member': {
    slug: 'demoted',
    who: (team: Team) => team.admin,
    depart: async (team: Team) =>
      team.owner.client.post(`${ORG}/update-member-role`, {
        memberId: await memberIdOf(team, team.admin.id),
        role: 'member',
        organizationId: team.orgId,
      }),
    why: "its person's role changed to member",
  },
}

/**
 * Each provider with the departures its commands are tried with: how a stop kills a command is the
 * provider's, what starts the stop the departure's, so the demotion is tried with one provider.
 */
const providers = [
  { provider: 'local', skip: '', tried: Object.entries(departures) },
  {
    provider: 'docker',
    skip: docker.ok ? '' : docker.why,
    tried: Object.entries(departures).filter(([how]) => how === 'is removed'),
  },
]

let seconds = 4900

/** `person`'s environment `name` with `provider`, and the model's answer to `Task name:`: the command. */
async function prepare(person: TeamPerson, provider: string, name: string) {
  const put = await person.client.put(
    `${R}/personal/environments/${name}.md`,
    `---\nprovider: ${provider}\n---\nWait.\n`,
  )
  expect(put.status, JSON.stringify(put.body)).toBe(201)
  const marker = `tail -f -s ${++seconds} /dev/null`
  agent.fake.replyWhen(`Task ${name}:`, toolUse('run_command', { environment: name, command: marker }), {
    text: 'Done, though gone.',
  })
  return marker
}

describe.each(providers)('a command in a $provider environment', ({ provider, skip, tried }) => {
  describe.each(tried)('when its person %s', (_how, departure) => {
    it.skipIf(skip)(
      `ends with their job's run, which is cancelled${skip && ` (skipped: ${skip})`}`,
      async () => {
        const team = await createTeam(agent.app)
        const person = departure.who(team)
        const name = `${provider}-run-${departure.slug}`
        const marker = await prepare(person, provider, name)
        const job = await person.client.post('/_agent-native/jobs', {
          name,
          schedule: '0 7 1 1 *',
          instructions: `Task ${name}: wait.`,
          environment: name,
        })
        expect(job.status, JSON.stringify(job.body)).toBe(201)
        const started = await person.client.post(`/_agent-native/jobs/${job.body.job.id}/run`)
        expect(started.status, JSON.stringify(started.body)).toBe(202)
        await expect.poll(() => processesWith(marker).length, STARTED).toBeGreaterThan(0)

        expect((await departure.depart(team)).status).toBe(200)

        await expect.poll(() => processesWith(marker), GONE).toEqual([])
        const [run] = await queryRows<{ status: string; error: string }>(
          agent.app.server.db.db,
          sql`select status, error from job_runs where id = ${started.body.run.id}`,
        )
        expect(run).toEqual({ status: 'cancelled', error: `Cancelled: ${departure.why}` })
      },
      120_000,
    )

    it.skipIf(skip)(
      `ends with their chat turn${skip && ` (skipped: ${skip})`}`,
      async () => {
        const team = await createTeam(agent.app)
        const person = departure.who(team)
        const name = `${provider}-chat-${departure.slug}`
        const marker = await prepare(person, provider, name)
        const turn = streamChat(person.client, `Task ${name}: wait.`)
        await expect.poll(() => processesWith(marker).length, STARTED).toBeGreaterThan(0)

        expect((await departure.depart(team)).status).toBe(200)

        await expect.poll(() => processesWith(marker), GONE).toEqual([])
        // The turn ended too, without asking the model again.
        await turn.done
        const asked = agent.fake.requests.filter((r) => JSON.stringify(r.body).includes(`Task ${name}:`))
        expect(asked).toHaveLength(1)
      },
      120_000,
    )
  })
})
