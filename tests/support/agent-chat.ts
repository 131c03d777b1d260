/**
 * Talking to the chat endpoint from tests like the chat panel does: POST a message, read the AI
 * SDK UI message stream (server-sent events) to its end, and fold it into the reply the browser
 * would hold, with the thread id the server put in its metadata.
 */
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai'
import type { ApiClient } from './api-client.ts'
import { toolUse, type FakeAnthropic } from './fake-anthropic.ts'

export type ChatTurn = {
  status: number
  /** The JSON error body when the server answered before streaming (4xx/5xx). */
  error?: { code: string; message: string; field?: string }
  chunks: UIMessageChunk[]
  /** The whole response text, to search for things that must never be in it. */
  raw: string
  reply?: UIMessage<{ threadId?: string }>
  threadId?: string
}

export const CHAT = '/_agent-native/agent/chat'

/** Sends one chat request (`{ threadId?, message }`) and reads the streamed reply to the end. */
export async function sendChat(
  client: ApiClient,
  body: { threadId?: string; message: unknown; retry?: boolean },
): Promise<ChatTurn> {
  const res = await fetch(client.baseUrl + CHAT, {
    method: 'POST',
    headers: { origin: client.baseUrl, cookie: client.cookieHeader, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const raw = await res.text()
  if (!res.headers.get('content-type')?.includes('text/event-stream')) {
    return { status: res.status, error: JSON.parse(raw).error, chunks: [], raw }
  }
  const chunks: UIMessageChunk[] = raw
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)))
  let reply: ChatTurn['reply']
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    },
  })
  // Answering a confirmation continues the assistant message it answers, as in the browser.
  const message =
    (body.message as { role?: string }).role === 'assistant'
      ? (body.message as NonNullable<ChatTurn['reply']>)
      : undefined
  for await (const next of readUIMessageStream<NonNullable<ChatTurn['reply']>>({ stream, message }))
    reply = next
  return { status: res.status, chunks, raw, reply, threadId: reply?.metadata?.threadId }
}

/** A person's text message, as the chat panel sends it. */
export const userText = (text: string) => ({
  id: `client-${Math.random()}`,
  role: 'user',
  parts: [{ type: 'text', text }],
})

/** The tool parts of a reply, by tool name. */
export function toolParts(reply: UIMessage | undefined, name: string): any[] {
  return (reply?.parts ?? []).filter((p) => p.type === `tool-${name}`)
}

/**
 * One chat turn in which the person's agent calls `name` with `input` (the fake model is scripted
 * to), then says "Done.": the turn, and the tool's output.
 */
export async function callTool(
  client: ApiClient,
  fake: FakeAnthropic,
  name: string,
  input: Record<string, unknown>,
): Promise<{ turn: ChatTurn; output: any }> {
  fake.reply(toolUse(name, input), { text: 'Done.' })
  const turn = await sendChat(client, { message: userText(`please ${name}`) })
  return { turn, output: toolParts(turn.reply, name)[0]?.output }
}
