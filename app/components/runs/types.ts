/**
 * A run as the pages see it: the API's own types, imported as types only (erased at build time).
 */
import type { RunHistoryPageSize } from '#server/pages/run-history.ts'
import type { Run } from '#server/runs/schema.ts'

export type { Run as RunLike, TranscriptMessage as TranscriptEntry } from '#server/runs/schema.ts'

/** The loader's page size (server/pages/run-history.ts); its type fails the build if the two drift. */
export const RUN_PAGE_SIZE: RunHistoryPageSize = 20

export const isActive = (run: Pick<Run, 'status'>) => run.status === 'queued' || run.status === 'running'
