/**
 * Reading a chat turn's stream as it arrives, as the browser does, so a test can tell what came
 * before something it did mid-turn (`sendChat` in agent-chat.ts returns only at the end).
 */
import type { UIMessageChunk } from 'ai'
import { CHAT, userText } from './agent-chat.ts'
import type { ApiClient } from './api-client.ts'

/** Sends a message; `chunks` fills as the stream arrives, `done` resolves with all of them. */
export function streamChat(client: ApiClient, text: string) {
  const chunks: UIMessageChunk[] = []
  const done = (async () => {
    const res = await fetch(client.baseUrl + CHAT, {
      method: 'POST',
      headers: { origin: client.baseUrl, cookie: client.cookieHeader, 'content-type': 'application/json' },
      body: JSON.stringify({ message: userText(text) }),
    })
    if (!res.headers.get('content-type')?.includes('text/event-stream'))
      throw new Error(`the chat answered ${res.status}: ${await res.text()}`)
    const decoder = new TextDecoder()
    let buffered = ''
    const reader = res.body!.getReader()
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffered += decoder.decode(read.value, { stream: true })
      const lines = buffered.split('\n')
      buffered = lines.pop()!
      for (const line of lines) {
        if (line.startsWith('data: ') && line !== 'data: [DONE]') chunks.push(JSON.parse(line.slice(6)))
      }
    }
    return chunks
  })()
  return { chunks, done }
}

export type OutputChunk = Extract<UIMessageChunk, { type: 'tool-output-available' }>

/** The tool results in a stream, preliminary ones included, in order. */
export const toolOutputs = (chunks: UIMessageChunk[]) =>
  chunks.filter((c): c is OutputChunk => c.type === 'tool-output-available')

/** The build a preliminary result reports (server/agent/tools/bootstrap-progress.ts), or null. */
export const bootstrappingOf = (chunk: OutputChunk): any =>
  chunk.preliminary
    ? ((chunk.output as { bootstrapping?: unknown } | undefined)?.bootstrapping ?? null)
    : null
