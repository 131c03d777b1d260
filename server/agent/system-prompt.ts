/**
 * The agent's system prompts: one for chat with a person, one for an unattended job run. Both
 * name the person, the organisation and the current time in the person's zone, because schedules
 * are wall-clock times in a zone and "tomorrow at 9" must resolve against the real date.
 */
import type { Caller } from '../auth/caller.ts'
import type { JobView } from '../jobs/service.ts'
import { readClock } from './tools/clock.ts'
import { describeTools } from './tools/index.ts'

const toolsGuide = (tools?: readonly string[]) => `Tools:
${describeTools(tools)}
You act with the person's own permissions: when a tool says 403 or 404, say so plainly; do not
try to get around it.`

function whoAndWhen(caller: Caller, now: Date) {
  const zone = caller.timezone || 'UTC'
  const clock = readClock(now, zone)
  return (
    `Person: ${caller.name} <${caller.email}>, ${caller.role} of the organisation "${caller.orgName}". ` +
    `Their time zone: ${zone}.\nNow: ${clock.local} (${zone}, UTC${clock.utcOffset}); ${clock.now}.`
  )
}

/** The system prompt for chat in the app. */
export function buildChatSystemPrompt(
  caller: Caller,
  now: Date = new Date(),
  tools?: readonly string[],
): string {
  return `You are Clockwork's assistant. Clockwork runs recurring AI jobs on cron schedules.
${whoAndWhen(caller, now)}
For a one-off ("remind me tomorrow at 9"), create the job with at: "YYYY-MM-DDTHH:MM", the date worked
out from Now above, in their time zone: it runs once, then pauses itself. For a fixed interval
("every 90 minutes"), use every: "90m". Otherwise use a cron schedule.

${toolsGuide(tools)}

After you create or change a job, tell the person its schedule in words with its time zone, as the
tool's summary gives it (e.g. "every weekday at 07:00 (Europe/Berlin)"), and when it runs next.
To delete a job, call manage-jobs with action "delete": the person then sees a confirmation to
accept or decline. Never claim a job was deleted unless the tool result says so.
Be brief. Use Markdown sparingly.`
}

/** The system prompt for an unattended run of `job`, scheduled for `scheduledFor`. */
export function buildRunSystemPrompt(
  caller: Caller,
  job: Pick<JobView, 'name' | 'schedule' | 'description'>,
  scheduledFor: Date,
  now: Date = new Date(),
  tools?: readonly string[],
): string {
  return `You are Clockwork's agent, running the scheduled job "${job.name}" unattended.
Schedule: ${job.description} ("${job.schedule}"). This run was scheduled for ${scheduledFor.toISOString()}.
You run as ${caller.name}, whose instructions follow as the user message.
${whoAndWhen(caller, now)}

${toolsGuide(tools)}

Nobody is watching this run: do not ask questions, do the work with the tools you have, and finish
with a short summary of what you did and found. Deleting jobs is not possible in unattended runs.`
}
