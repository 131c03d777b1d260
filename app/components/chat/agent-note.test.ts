import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { MessageParts } from './message-parts.tsx'

const render = (parts: unknown[]) => renderToStaticMarkup(createElement(MessageParts, { parts }))

describe("the model's notes between tool calls", () => {
  it('shows a note, muted, before the tool call it precedes', () => {
    const html = render([
      { type: 'reasoning', text: 'Let me check the feed first.' },
      { type: 'tool-clock', toolCallId: 'call_1', state: 'output-available', input: {}, output: {} },
    ])
    expect(html).toMatch(/data-testid="agent-note"[^>]*>Let me check the feed first\.<\/p>.*tool/s)
    expect(html).toContain('dark:text-stone-400')
  })

  it('shows nothing for a note the model kept to itself (empty text)', () => {
    expect(
      render([
        { type: 'reasoning', text: '' },
        { type: 'text', text: 'Done.' },
      ]),
    ).not.toContain('agent-note')
  })
})
