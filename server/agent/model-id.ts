/**
 * Anthropic's model ids, read in one place (pricing, thinking notes, retired models). Since Claude 4
 * they are named family first, `claude-<family>-<major>[-<minor>]` (`claude-opus-4-1`); before, version
 * first, `claude-<major>[-<minor>]-<family>` (`claude-3-7-sonnet`). Either may end in a dated
 * snapshot's `-YYYYMMDD` or in `-latest`. An id is the part after the provider (`anthropic:`), which
 * readModelChoice splits off.
 */

export const CLAUDE_FAMILIES = ['fable', 'mythos', 'opus', 'sonnet', 'haiku'] as const
export type ClaudeFamily = (typeof CLAUDE_FAMILIES)[number]

/** What an Anthropic model id names. */
export type ClaudeModelId = {
  family: ClaudeFamily
  major: number
  /** Null when the id names none (`claude-opus-4`, `claude-3-haiku`). */
  minor: number | null
  /** A dated snapshot (`claude-opus-4-1-20250805`), not the id that follows the newest one. */
  dated: boolean
  /** Named family first, as every model since Claude 4 is; false for `claude-3-7-sonnet` and its kin. */
  familyFirst: boolean
}

/** A listed id, or one of its dated snapshots (`claude-opus-4-6-20260205`). */
const SNAPSHOT = /^(.*?)(?:-(\d{8}))?$/

function splitSnapshot(modelId: string) {
  const [, undated, date] = SNAPSHOT.exec(modelId.replace(/-latest$/, ''))!
  return { undated: undated!, dated: date !== undefined }
}

/** `claude-opus-4-6` for `claude-opus-4-6-20260205` or `claude-opus-4-6-latest`: the id a list names. */
export function undatedModelId(modelId: string): string {
  return splitSnapshot(modelId).undated
}

const FAMILY = `(?<family>${CLAUDE_FAMILIES.join('|')})`
const version = (major: string) => String.raw`(?<major>${major})(?:-(?<minor>\d{1,2}))?`
// One digit: `claude-sonnet-45` is a mistyped `claude-sonnet-4-5`, not Sonnet 45.
const FAMILY_FIRST = new RegExp(`^claude-${FAMILY}-${version(String.raw`\d`)}$`)
// Only Claude 1 to 3 were named version first.
const VERSION_FIRST = new RegExp(`^claude-${version('[1-3]')}-${FAMILY}$`)

/** The family and version an Anthropic model id names, or null for anything else. */
export function parseClaudeModelId(modelId: string): ClaudeModelId | null {
  const { undated, dated } = splitSnapshot(modelId)
  const familyFirst = FAMILY_FIRST.exec(undated)
  const match = familyFirst ?? VERSION_FIRST.exec(undated)
  if (!match) return null
  const { family, major, minor } = match.groups!
  return {
    family: family as ClaudeFamily,
    major: Number(major),
    minor: minor === undefined ? null : Number(minor),
    dated,
    familyFirst: familyFirst !== null,
  }
}
