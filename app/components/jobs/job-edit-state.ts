/**
 * The job page's editing state: the version the person started editing from ("base", sent as
 * If-Match so a save never overwrites someone else's change unseen) and the draft they are
 * typing. `jobEditReducer` is what a person does; `observe` is what arrives: the outcome of our
 * own save or pause (adopted once each), and someone else's change, shown at once when there is
 * nothing of ours to lose. Both are pure; `useJobEdit` renders from `observe`'s answer and keeps
 * it after the render, so no state is set while rendering.
 */
import { useEffect, useReducer } from 'react'
import type { ActionData } from '#app/lib/action-errors.ts'
import type { JobLike } from '#app/lib/job-types.ts'
import { changedFields, type JobDraft } from './job-draft.ts'

export type Base = { version: number; draft: JobDraft }
export type JobEditState = {
  base: Base
  draft: JobDraft
  /** The fetcher results already adopted, so each is adopted once. */
  handled: { save?: ActionData; toggle?: ActionData }
}

export type JobEditAction =
  | { type: 'edit'; update: (draft: JobDraft) => JobDraft }
  | { type: 'discard' }
  /** Start again from the stored job (its version and its draft). */
  | { type: 'load'; version: number; draft: JobDraft }
  /** Keep what `observe` answered. */
  | { type: 'adopt'; state: JobEditState }

/** What the page sees this render: its fetchers (only once idle) and the loader's job. */
export type Observed<Job extends { version: number }> = {
  save?: ActionData
  toggle?: ActionData
  /** Whether neither request is in flight. */
  idle: boolean
  job: Job
}

export function initialJobEdit(version: number, draft: JobDraft): JobEditState {
  return { base: { version, draft }, draft, handled: {} }
}

export function jobEditReducer(state: JobEditState, action: JobEditAction): JobEditState {
  switch (action.type) {
    case 'edit':
      return { ...state, draft: action.update(state.draft) }
    case 'discard':
      return { ...state, draft: state.base.draft }
    case 'load':
      return { ...state, base: { version: action.version, draft: action.draft }, draft: action.draft }
    case 'adopt':
      return action.state
  }
}

/** Whether the draft differs from what it started from. */
export const isDirty = (state: JobEditState) =>
  Object.keys(changedFields(state.base.draft, state.draft)).length > 0

/** The job a successful save or pause answered with. */
export const savedJob = <Job>(data: ActionData | undefined) =>
  data?.ok ? (data.data as { job?: Job } | undefined)?.job : undefined

/**
 * The state once what arrived is taken in; `state` itself (the same object) when nothing new
 * did, so calling it again with the same input changes nothing. A save's job becomes the base
 * and the draft; a pause's job only moves the base version (the draft is the person's); a newer
 * stored job replaces both only when the draft is unchanged and no request is in flight.
 */
export function observe<Job extends { version: number }>(
  state: JobEditState,
  seen: Observed<Job>,
  draftOf: (job: Job) => JobDraft,
): JobEditState {
  let next = state
  if (seen.save && seen.save !== next.handled.save) {
    next = { ...next, handled: { ...next.handled, save: seen.save } }
    const saved = savedJob<Job>(seen.save)
    if (saved) next = jobEditReducer(next, { type: 'load', version: saved.version, draft: draftOf(saved) })
  }
  if (seen.toggle && seen.toggle !== next.handled.toggle) {
    next = { ...next, handled: { ...next.handled, toggle: seen.toggle } }
    const saved = savedJob<Job>(seen.toggle)
    if (saved) next = { ...next, base: { ...next.base, version: saved.version } }
  }
  if (seen.idle && !isDirty(next) && seen.job.version > next.base.version) {
    next = jobEditReducer(next, { type: 'load', version: seen.job.version, draft: draftOf(seen.job) })
  }
  return next
}

type Fetcher = { state: string; data?: ActionData }

/**
 * The job page's editing state over its save and pause fetchers. Renders from what `observe`
 * answers for this render and keeps it in an effect, so the page is never a render behind.
 */
export function useJobEdit(
  job: JobLike,
  draftOf: (job: JobLike) => JobDraft,
  save: Fetcher,
  toggle: Fetcher,
) {
  const [stored, dispatch] = useReducer(jobEditReducer, undefined, () =>
    initialJobEdit(job.version, draftOf(job)),
  )
  const state = observe(
    stored,
    {
      save: save.state === 'idle' ? save.data : undefined,
      toggle: toggle.state === 'idle' ? toggle.data : undefined,
      idle: save.state === 'idle' && toggle.state === 'idle',
      job,
    },
    draftOf,
  )
  useEffect(() => {
    if (state !== stored) dispatch({ type: 'adopt', state })
  }, [state, stored])
  return { state, dispatch }
}
