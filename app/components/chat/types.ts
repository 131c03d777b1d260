/**
 * What the agent's tools return, as the chat panel reads it (server/agent/tools/*). Structural
 * copies, so browser code never imports server modules; every field is read defensively.
 */

export type ToolFailure = { ok: false; error: { status: number; code: string; message: string } }

export type JobBrief = {
  id: string
  name: string
  scope: 'personal' | 'shared'
  description: string
  enabled: boolean
  nextRun: string | null
  url: string
}

export type ManageJobsOutput =
  | { ok: true; action: 'create' | 'update'; summary: string; job: JobBrief }
  | { ok: true; action: 'list'; summary: string; jobs: JobBrief[] }
  | { ok: true; action: 'delete'; summary: string; job: Pick<JobBrief, 'id' | 'name' | 'scope'> }
  | (ToolFailure & { action: string })

export type ManageJobsInput = { action?: string; name?: string; id?: string; scope?: string }

export type WorkspaceOutput = { ok: true; action: string; summary: string } | ToolFailure

export type ClockOutput = { ok: true; local: string; timezone: string } | ToolFailure

/** A tool part of an AI SDK UI message (type "tool-<name>"), as far as the panel needs it. */
export type ToolPart = {
  type: string
  toolCallId: string
  state: string
  input?: unknown
  output?: unknown
  errorText?: string
  approval?: { id: string; approved?: boolean; reason?: string }
}

/** Metadata the server puts on replies: the thread they belong to. */
export type ChatMetadata = { threadId?: string }

/** The error body the chat endpoint answers with before streaming (e.g. no model key). */
export function readChatError(error: Error): { message: string; code?: string } {
  try {
    const body = JSON.parse(error.message) as { error?: { message?: string; code?: string } }
    if (body.error?.message) return { message: body.error.message, code: body.error.code }
  } catch {
    // Not JSON: a network failure or a message from the stream.
  }
  return { message: error.message || 'The agent could not answer. Try again.' }
}
