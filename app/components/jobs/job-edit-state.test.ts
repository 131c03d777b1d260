import { describe, expect, it } from 'vitest'
import type { ActionData } from '#app/lib/action-errors.ts'
import type { JobDraft } from './job-draft.ts'
import { initialJobEdit, isDirty, jobEditReducer, observe, type JobEditState } from './job-edit-state.ts'

// A stand-in for the loader's job: the page only reads its version and what draftOf makes of it.
type Job = { version: number; instructions: string; schedule: string }
const draftOf = (job: Job) =>
  ({ instructions: job.instructions, schedule: job.schedule }) as unknown as JobDraft
const job = (version: number, instructions = `v${version}`): Job => ({
  version,
  instructions,
  schedule: '0 7 * * *',
})
const start = (j: Job) => initialJobEdit(j.version, draftOf(j))
const typed = (state: JobEditState, instructions: string) =>
  jobEditReducer(state, { type: 'edit', update: (d) => ({ ...d, instructions }) as JobDraft })
const saved = (j: Job): ActionData => ({ ok: true, intent: 'save', data: { job: j } })
const refused = (status: number): ActionData => ({
  ok: false,
  intent: 'save',
  error: { message: 'no', status },
})
const text = (state: JobEditState) => (state.draft as unknown as Job).instructions

describe('jobEditReducer', () => {
  it('edits the draft and leaves the base; discard goes back to the base', () => {
    const first = start(job(1))
    const edited = typed(first, 'mine')
    expect(text(edited)).toBe('mine')
    expect(edited.base).toEqual(first.base)
    expect(isDirty(edited)).toBe(true)
    const discarded = jobEditReducer(edited, { type: 'discard' })
    expect(text(discarded)).toBe('v1')
    expect(isDirty(discarded)).toBe(false)
  })

  it('load starts again from a stored job: its version and its draft', () => {
    const loaded = jobEditReducer(typed(start(job(1)), 'mine'), {
      type: 'load',
      version: 3,
      draft: draftOf(job(3)),
    })
    expect(loaded.base.version).toBe(3)
    expect(text(loaded)).toBe('v3')
    expect(isDirty(loaded)).toBe(false)
  })
})

describe('observe', () => {
  const idle = { idle: true, job: job(1) }

  it('answers the same state when nothing new arrived', () => {
    const state = typed(start(job(1)), 'mine')
    expect(observe(state, idle, draftOf)).toBe(state)
  })

  it('adopts a successful save once: the saved job becomes base and draft', () => {
    const state = typed(start(job(1)), 'mine')
    const data = saved(job(2, 'mine'))
    const after = observe(state, { ...idle, save: data, job: job(2, 'mine') }, draftOf)
    expect(after.base.version).toBe(2)
    expect(text(after)).toBe('mine')
    expect(isDirty(after)).toBe(false)
    // The same result seen again (the fetcher keeps its data) changes nothing, even after edits.
    const editedAgain = typed(after, 'more')
    expect(observe(editedAgain, { ...idle, save: data, job: job(2, 'mine') }, draftOf)).toBe(editedAgain)
  })

  it('keeps the draft when a save is refused (a 409 keeps the text), and marks it handled', () => {
    const state = typed(start(job(1)), 'mine')
    const data = refused(409)
    const after = observe(state, { ...idle, save: data, job: job(2, 'theirs') }, draftOf)
    expect(text(after)).toBe('mine')
    expect(after.base.version).toBe(1) // still what the person started from: the conflict shows
    expect(after.handled.save).toBe(data)
    expect(observe(after, { ...idle, save: data, job: job(2, 'theirs') }, draftOf)).toBe(after)
  })

  it('a pause or resume moves only the base version; the draft is the person’s', () => {
    const state = typed(start(job(1)), 'mine')
    const data: ActionData = { ok: true, intent: 'toggle', data: { job: job(2) } }
    const after = observe(state, { ...idle, toggle: data, job: job(2) }, draftOf)
    expect(after.base.version).toBe(2)
    expect(text(after)).toBe('mine')
    expect(after.base.draft).toEqual(state.base.draft)
  })

  it('shows someone else’s change at once when there is nothing of ours to lose', () => {
    const after = observe(start(job(1)), { idle: true, job: job(4, 'theirs') }, draftOf)
    expect(after.base.version).toBe(4)
    expect(text(after)).toBe('theirs')
  })

  it('does not replace a changed draft, nor anything while a request is in flight', () => {
    const dirty = typed(start(job(1)), 'mine')
    expect(observe(dirty, { idle: true, job: job(4, 'theirs') }, draftOf)).toBe(dirty)
    const clean = start(job(1))
    expect(observe(clean, { idle: false, job: job(4, 'theirs') }, draftOf)).toBe(clean)
  })

  it('ignores an older or equal stored version', () => {
    const state = start(job(5))
    expect(observe(state, { idle: true, job: job(5, 'same') }, draftOf)).toBe(state)
    expect(observe(state, { idle: true, job: job(3) }, draftOf)).toBe(state)
  })

  it('is a fixed point: observing its own answer again changes nothing', () => {
    const seen = { idle: true, save: saved(job(2, 'mine')), job: job(3, 'later') }
    const once = observe(typed(start(job(1)), 'mine'), seen, draftOf)
    expect(once.base.version).toBe(3) // the save, then the newer stored job with nothing to lose
    expect(text(once)).toBe('later')
    expect(observe(once, seen, draftOf)).toBe(once)
  })
})
