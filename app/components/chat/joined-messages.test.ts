import type { UIMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { asStored } from './joined-messages.ts'

const person = (id: string, text: string): UIMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
})
const reply = (id: string, text?: string): UIMessage => ({
  id,
  role: 'assistant',
  parts: text ? [{ type: 'step-start' }, { type: 'text', text }] : [{ type: 'step-start' }],
})
const view = (messages: UIMessage[]) =>
  asStored(messages).map((m) => [m.id, m.role, m.parts.map((p) => (p.type === 'text' ? p.text : p.type))])

describe('asStored', () => {
  it('shows a message sent after an unanswered one as one message, as the thread holds it', () => {
    // The first turn failed: its reply came with nothing in it; the second was added to the first.
    expect(view([person('a', 'first'), reply('r', undefined), person('b', 'second')])).toEqual([
      ['b', 'user', ['first\n\nsecond']],
    ])
    expect(
      view([person('a', 'one'), person('b', 'two'), person('c', 'three'), reply('r', 'Answered.')]),
    ).toEqual([
      ['c', 'user', ['one\n\ntwo\n\nthree']],
      ['r', 'assistant', ['step-start', 'Answered.']],
    ])
  })

  it('leaves answered messages apart', () => {
    const messages = [person('a', 'first'), reply('r', 'Yes.'), person('b', 'second')]
    expect(asStored(messages)).toEqual(messages)
  })
})
