/**
 * What one short MCP session (mcp-client.ts) may cost, whatever the server answers. The SDK client
 * answers every request the server sends with a POST of its own, at once, and handles every message
 * it is sent: a server answering `tools/list` with thousands of `ping` events had the client open
 * thousands of connections and hold the event loop for seconds. So a session answers the server's
 * first {@link MAX_ANSWERED_REQUESTS} requests and drops the rest, and the first bound the server
 * crosses (requests open at once, requests in all, messages, bytes) ends the session with a
 * refusal naming it.
 */
import type {
  FetchLike,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  isJSONRPCRequest,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js'
import { watchedResponse } from '../lib/watched-body.ts'

/** Requests (and their answers' bodies) open at once: the event stream, a request, two answers to pings. */
export const MAX_REQUESTS_OPEN = 4
/** Requests in one session: a listing takes about ten; a server closing its event stream makes more. */
export const MAX_REQUESTS = 32
/** Messages the server may send in one session: answers, notifications and requests together. */
export const MAX_MESSAGES = 256
/** The server's own requests (`ping`) answered in one session; later ones are dropped unanswered. */
export const MAX_ANSWERED_REQUESTS = 2

/** The server crossed one of a session's bounds. */
export class McpSessionBound extends Error {
  override name = 'McpSessionBound'
}

/** The bounds of one session with server `server`, whose answers may hold `maxBytes` together. */
export class McpSessionBounds {
  private requests = 0
  private open = 0
  private bytes = 0
  private messages = 0
  private answered = 0
  private inner: Transport | undefined
  /** The first bound crossed, once one was: the session is over. */
  crossed: McpSessionBound | undefined

  constructor(
    private readonly server: string,
    private readonly maxBytes: number,
  ) {}

  /** `fetch` counted: each request, its body's bytes, and while it is open. */
  fetch(fetch: FetchLike): FetchLike {
    return async (url, init) => {
      if (this.crossed) throw this.crossed
      if (++this.requests > MAX_REQUESTS) throw this.cross(`needed more than ${MAX_REQUESTS} requests`)
      if (this.open >= MAX_REQUESTS_OPEN)
        throw this.cross(`kept more than ${MAX_REQUESTS_OPEN} requests open at once`)
      this.open++
      let response: Response
      try {
        response = await fetch(url, init)
      } catch (err) {
        this.open--
        throw err
      }
      return watchedResponse(response, {
        onDone: () => this.open--,
        onChunk: (size) => {
          this.bytes += size
          return this.bytes > this.maxBytes ? this.cross(`answered more than ${this.maxBytes} bytes`) : null
        },
      })
    }
  }

  /** `transport` with the server's messages counted and its requests past the first few dropped. */
  transport(transport: Transport): Transport {
    this.inner = transport
    return new BoundedTransport(transport, (message) => this.admit(message))
  }

  private admit(message: JSONRPCMessage): boolean {
    if (this.crossed) return false
    if (++this.messages > MAX_MESSAGES) {
      this.cross(`sent more than ${MAX_MESSAGES} messages`)
      return false
    }
    return !isJSONRPCRequest(message) || ++this.answered <= MAX_ANSWERED_REQUESTS
  }

  /** Records the bound crossed and ends the session: its requests waiting then fail at once. */
  private cross(what: string): McpSessionBound {
    this.crossed ??= new McpSessionBound(`MCP server ${this.server} ${what} in one session`)
    void this.inner?.close().catch(() => {})
    return this.crossed
  }
}

/** Passes everything through, but only the server's messages `admit` lets in. */
class BoundedTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void

  constructor(
    private readonly inner: Transport,
    admit: (message: JSONRPCMessage) => boolean,
  ) {
    inner.onclose = () => this.onclose?.()
    inner.onerror = (error) => this.onerror?.(error)
    inner.onmessage = (message, extra) => {
      if (admit(message)) this.onmessage?.(message, extra)
    }
  }

  get sessionId() {
    return this.inner.sessionId
  }
  start() {
    return this.inner.start()
  }
  send(message: JSONRPCMessage, options?: TransportSendOptions) {
    return this.inner.send(message, options)
  }
  close() {
    return this.inner.close()
  }
  setProtocolVersion(version: string) {
    this.inner.setProtocolVersion?.(version)
  }
}
