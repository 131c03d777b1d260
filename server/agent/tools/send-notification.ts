/**
 * send_notification: in a job run, the agent posts a message to one of the job's own notify
 * targets (email of an org member, a registered webhook or Slack endpoint). In chat it is refused.
 */
import { tool } from 'ai'
import { z } from 'zod'
import { sendRunNotification } from '../../integrations/send-notification.ts'
import { toToolFailure, type ToolContext } from '../tool-context.ts'

const SendNotificationInput = z.object({
  target: z
    .string()
    .describe(
      "One of the job's notify targets exactly as configured, e.g. webhook:ops-feed or email:ana@example.com",
    ),
  subject: z
    .string()
    .max(200)
    .optional()
    .describe('A short subject line (email, Slack); defaults to the job name'),
  message: z.string().min(1).max(20_000).describe('The message to send, plain text or Markdown'),
})

export const SEND_NOTIFICATION_DESCRIPTION =
  "In a job run: send a message to one of the job's configured notify targets (its onSuccess/onFailure " +
  'lists) mid-run, e.g. an early warning. Other targets are refused; not available in chat.'

export function createSendNotificationTool(ctx: ToolContext) {
  return tool({
    description: SEND_NOTIFICATION_DESCRIPTION,
    inputSchema: SendNotificationInput,
    execute: async (input) => {
      try {
        return { ok: true as const, ...(await sendRunNotification(ctx.caller, ctx.runId, input)) }
      } catch (err) {
        return toToolFailure(err, 'send_notification')
      }
    },
  })
}
