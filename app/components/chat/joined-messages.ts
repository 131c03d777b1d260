/**
 * How the chat shows the person's messages that the model has not answered: as the thread holds
 * them (decision 0502), not as they were sent.
 */
import type { UIMessage } from 'ai'

/** The text of a message, its text parts run together. */
export const textOf = (message: UIMessage) =>
  message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('')

/** A reply with nothing in it: what a turn that failed before the model answered leaves here. */
const isEmptyReply = (message: UIMessage | undefined) =>
  message?.role === 'assistant' && message.parts.every((p) => p.type === 'step-start')

/**
 * The messages as the thread holds them: a message sent while the person's last one had no reply
 * was added to it after a blank line (decision 0502), so it shows as one message here too, not
 * as two until the chat is opened again. The joined one keeps the later id; the array underneath
 * is unchanged, so Retry still sends the last thing typed, which the server recognises.
 */
export function asStored<M extends UIMessage>(messages: M[]): M[] {
  const shown: M[] = []
  for (const message of messages) {
    if (message.role === 'user') {
      if (isEmptyReply(shown.at(-1)) && shown.at(-2)?.role === 'user') shown.pop()
      const previous = shown.at(-1)
      if (previous?.role === 'user') {
        shown[shown.length - 1] = {
          ...message,
          parts: [{ type: 'text', text: `${textOf(previous)}\n\n${textOf(message)}` }],
        }
        continue
      }
    }
    shown.push(message)
  }
  return shown
}
