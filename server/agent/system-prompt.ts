/**
 * The agent's system prompts: one for chat with a person, one for an unattended job run. Each is
 * two parts. `stable` is the same for every conversation of its kind: it follows the tool
 * definitions in the prompt and ends the prefix Anthropic caches (loop.ts marks it), so a run's
 * second and later model calls, and the next conversation within minutes, read it from the cache
 * at a tenth of the price. `context` is this conversation's: the person, the organisation, the
 * time in the person's zone (schedules are wall-clock times in a zone and "tomorrow at 9" must
 * resolve against the real date), the job. The tools are described by their own definitions only
 * (docs/decisions/0262-a-cached-prompt-prefix-and-the-tools-a-run-names.md).
 */
import type { Caller } from '../auth/caller.ts'
import type { JobView } from '../jobs/service.ts'
import { readClock } from './tools/clock.ts'

export type SystemPrompt = { stable: string; context: string }

const PERMISSIONS = `You act with the person's own permissions: when a tool answers 403 or 404, say so plainly; do not
try to get around it.`

function whoAndWhen(caller: Caller, now: Date) {
  const zone = caller.timezone || 'UTC'
  const clock = readClock(now, zone)
  return (
    `Person: ${caller.name} <${caller.email}>, ${caller.role} of the organisation "${caller.orgName}". ` +
    `Their time zone: ${zone}.\nNow: ${clock.local} (${zone}, UTC${clock.utcOffset}); ${clock.now}.`
  )
}

const CHAT = `You are Clockwork's assistant. Clockwork runs recurring AI jobs on cron schedules.
For a one-off ("remind me tomorrow at 9"), create the job with at: "YYYY-MM-DDTHH:MM", the date worked
out from Now below, in the person's time zone: it runs once, then pauses itself. For a fixed interval
("every 90 minutes"), use every: "90m". Otherwise use a cron schedule.
After creating or changing a job, tell the person its schedule in words with its time zone, as the
tool's summary gives it, and when it runs next. To delete a job, call manage-jobs with action
"delete": the person then confirms or declines; never claim a job was deleted unless the tool
result says so.
${PERMISSIONS}
Be brief. Use Markdown sparingly.`

/** The system prompt for chat in the app. */
export function buildChatSystemPrompt(caller: Caller, now: Date = new Date()): SystemPrompt {
  return { stable: CHAT, context: whoAndWhen(caller, now) }
}

const RUN = `You are Clockwork's agent, running a scheduled job unattended: the job and the person it runs as
are named below, and the person's instructions follow as the user message.
${PERMISSIONS}
Nobody is watching: do not ask questions, do the work with the tools you have, and finish with a
short summary of what you did and found. Deleting jobs is not possible in unattended runs.`

/** The system prompt for an unattended run of `job`, scheduled for `scheduledFor`. */
export function buildRunSystemPrompt(
  caller: Caller,
  job: Pick<JobView, 'name' | 'schedule' | 'description'>,
  scheduledFor: Date,
  now: Date = new Date(),
): SystemPrompt {
  return {
    stable: RUN,
    context:
      `Job: "${job.name}" unattended, ${job.description} ("${job.schedule}"); this run was scheduled for ` +
      `${scheduledFor.toISOString()}.\nYou run as ${caller.name}.\n${whoAndWhen(caller, now)}`,
  }
}

/** `prompt` with `more` added to its context (notes about MCP servers, skills). */
export function withContext(prompt: SystemPrompt, more: (context: string) => string): SystemPrompt {
  return { stable: prompt.stable, context: more(prompt.context) }
}
