import { describe, expect, it } from 'vitest'
import { pickHistoryStart } from './thread-bounds.ts'

type Role = 'user' | 'assistant'
/** Messages newest first, as the store reads them: `[seq, role, bytes]`. */
const sizes = (...rows: [number, Role, number][]) => rows.map(([seq, role, bytes]) => ({ seq, role, bytes }))

describe('pickHistoryStart', () => {
  it('takes earlier turns while both budgets hold and starts at a question', () => {
    const thread = sizes(
      [5, 'user', 10],
      [4, 'assistant', 10],
      [3, 'user', 10],
      [2, 'assistant', 10],
      [1, 'user', 10],
    )
    expect(pickHistoryStart(thread, { messages: 10, bytes: 1000 })).toBe(1)
    // Four messages fit, but the fourth is a reply: the history starts at the question after it.
    expect(pickHistoryStart(thread, { messages: 4, bytes: 1000 })).toBe(3)
    expect(pickHistoryStart(thread, { messages: 10, bytes: 35 })).toBe(3)
  })

  it('never splits a reply from its question, and always sends the latest question', () => {
    // A reply holding a large tool call and its result, being continued after a confirmation.
    const thread = sizes([4, 'assistant', 5000], [3, 'user', 10], [2, 'assistant', 10], [1, 'user', 10])
    expect(pickHistoryStart(thread, { messages: 10, bytes: 100 })).toBe(3)
  })

  it('sends nothing from a thread without a question', () => {
    expect(pickHistoryStart(sizes([0, 'assistant', 10]))).toBeUndefined()
    expect(pickHistoryStart([])).toBeUndefined()
  })
})
