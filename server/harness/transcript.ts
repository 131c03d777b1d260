/**
 * A harness run's transcript, kept bounded as it is read. What a CLI prints is the tenant's (its
 * job's instructions steer it, and the model's answers): a run may make thousands of tool calls
 * or print megabytes of text. A builtin run is bounded by its step count (RUN_MAX_STEPS) and its
 * tools' output caps; a harness run has neither, so its transcript keeps at most
 * {@link HARNESS_MAX_PARTS} steps, each cut to {@link HARNESS_PART_MAX_CHARS}, all of them to
 * {@link HARNESS_TRANSCRIPT_MAX_CHARS}, and a last text step says how many were left out
 * (decision 0483). Each step is redacted once, when it is kept or completed, so a progress report
 * costs what changed, not the whole transcript again.
 */
import type { HarnessSummary, TranscriptPart } from './adapter.ts'

export const HARNESS_MAX_PARTS = 400
export const HARNESS_PART_MAX_CHARS = 32 * 1024
export const HARNESS_TRANSCRIPT_MAX_CHARS = 1024 * 1024

/** The CLI's last word, its error or final answer (a run's error may be its error), cut to this. */
export const HARNESS_SUMMARY_MAX_CHARS = 16 * 1024

type ToolPart = Extract<TranscriptPart, { toolCallId: string }>
type Redact = (text: string) => string

/** `text` cut to `max` characters, saying how many were left out. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text
  const keep = Math.max(0, max - 60)
  return `${text.slice(0, keep)}\n[… ${text.length - keep} characters left out …]`
}

/** A CLI's summary with its error and result cut to {@link HARNESS_SUMMARY_MAX_CHARS}. */
export function cutSummary({ error, result }: HarnessSummary): HarnessSummary {
  return {
    error: error === null ? null : cutText(error, HARNESS_SUMMARY_MAX_CHARS),
    ...(result === undefined ? {} : { result: cutText(result, HARNESS_SUMMARY_MAX_CHARS) }),
  }
}

/** A value, redacted, as itself when its JSON fits in `max` characters, else as its JSON cut. */
function fitValue(value: unknown, max: number, redact: Redact): unknown {
  if (value === undefined) return undefined
  if (typeof value === 'string') return cutText(redact(value), max)
  const json = redact(JSON.stringify(value) ?? 'null')
  return json.length <= max ? JSON.parse(json) : cutText(json, max)
}

const sizeOf = (part: TranscriptPart) => JSON.stringify(part).length

export type KeptTranscript = {
  /**
   * Keeps a new step (a text, or a tool call by its id) if the bounds allow, else counts it left
   * out; true when the transcript changed (a call seen before changes nothing).
   */
  add(part: TranscriptPart): boolean
  /** The kept tool call `id`, if any: its result is given by {@link settle}. */
  tool(id: string): ToolPart | undefined
  /** Sets a kept tool call's state and result; false when the call was left out. */
  settle(id: string, patch: Pick<ToolPart, 'state'> & { output?: unknown; errorText?: string }): boolean
  /** Counts something the CLI printed that was left out unread (an over-long line). */
  leaveOut(): void
  /** The kept steps, redacted and cut, with a last note when any were left out. */
  parts(): TranscriptPart[]
}

export function keptTranscript(redact: Redact = (t) => t): KeptTranscript {
  const kept: TranscriptPart[] = []
  const sizes = new Map<TranscriptPart, number>()
  const tools = new Map<string, ToolPart>()
  /** Calls left out, so their later events are not counted again. */
  const dropped = new Set<string>()
  let used = 0
  let leftOut = 0
  const room = () => Math.min(HARNESS_PART_MAX_CHARS, Math.max(0, HARNESS_TRANSCRIPT_MAX_CHARS - used))
  const count = (part: TranscriptPart) => {
    const size = sizeOf(part)
    used += size - (sizes.get(part) ?? 0)
    sizes.set(part, size)
  }
  return {
    add(part) {
      const id = 'toolCallId' in part ? part.toolCallId : undefined
      if (id !== undefined && (tools.has(id) || dropped.has(id))) return false
      const max = room()
      if (kept.length >= HARNESS_MAX_PARTS || max < 256) {
        if (id !== undefined) dropped.add(id)
        leftOut++
        return true // the note's count changed
      }
      const fitted: TranscriptPart =
        part.type === 'text'
          ? { type: 'text', text: cutText(redact(part.text), max) }
          : { ...part, input: fitValue(part.input, max, redact) }
      kept.push(fitted)
      count(fitted)
      if ('toolCallId' in fitted) tools.set(fitted.toolCallId, fitted)
      return true
    },
    tool: (id) => tools.get(id),
    settle(id, { state, output, errorText }) {
      const part = tools.get(id)
      if (!part) return false
      // Its result gets what is left of the step's own share and of the transcript's.
      const held = sizes.get(part) ?? 0
      const share = Math.max(64, Math.min(HARNESS_PART_MAX_CHARS - held, HARNESS_TRANSCRIPT_MAX_CHARS - used))
      part.state = state
      if (output !== undefined) part.output = fitValue(output, share, redact)
      if (errorText !== undefined) part.errorText = cutText(redact(errorText), share)
      count(part)
      return true
    },
    leaveOut: () => void leftOut++,
    parts() {
      if (leftOut === 0) return [...kept]
      const note =
        `[… ${leftOut} more step${leftOut === 1 ? '' : 's'} of this run left out: a harness run keeps at most ` +
        `${HARNESS_MAX_PARTS} steps and ${HARNESS_TRANSCRIPT_MAX_CHARS / 1024} KiB of them …]`
      return [...kept, { type: 'text', text: note }]
    },
  }
}
