/**
 * A response body that says when it is over: read to its end, cancelled by its reader, or failed.
 * Whoever counts what is open (an MCP session's requests, a run's relayed requests) lets go of its
 * slot then, and may refuse the body's bytes as they pass.
 */

export type BodyWatch = {
  /** Called once when the body ends, is cancelled or fails (also for a response without a body). */
  onDone: () => void
  /** Each chunk's size as it passes; an Error returned fails the body with it. */
  onChunk?: (bytes: number) => Error | null
}

/** `response` with its body watched ({@link BodyWatch}); status, headers and url are kept. */
export function watchedResponse(response: Response, watch: BodyWatch): Response {
  if (!response.body) {
    watch.onDone()
    return response
  }
  const watched = new Response(watchedStream(response.body, watch), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
  // Redirect messages name where the request went (the SDK reads `url`).
  Object.defineProperty(watched, 'url', { value: response.url })
  return watched
}

/** `stream` passed on chunk by chunk, with {@link BodyWatch} told as it goes. */
export function watchedStream(
  stream: ReadableStream<Uint8Array>,
  watch: BodyWatch,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader()
  let over = false
  const finish = () => {
    if (over) return
    over = true
    watch.onDone()
  }
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read()
        if (done) {
          finish()
          return controller.close()
        }
        const refusal = watch.onChunk?.(value.byteLength) ?? null
        if (refusal) {
          finish()
          void reader.cancel(refusal).catch(() => {})
          return controller.error(refusal)
        }
        controller.enqueue(value)
      } catch (err) {
        finish()
        controller.error(err)
      }
    },
    cancel(reason) {
      finish()
      return reader.cancel(reason)
    },
  })
}
