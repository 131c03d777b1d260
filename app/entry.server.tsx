/**
 * React Router's default Node entry, plus the CSP nonce: the server sets one per request
 * (server/http/security-headers.ts), and every inline script React Router renders carries it.
 * The document is collected into one buffer before it is answered: React writes a page in a few
 * hundred small chunks, and each chunk through a web stream, the compressor and the socket cost
 * more CPU than rendering it (docs/decisions/0260-pages-are-answered-in-one-buffer.md). Loaders
 * have finished before rendering starts, so the shell and the whole page are ready at nearly the
 * same moment; only a lazy component (the code editor) arrives with the page rather than after it.
 */
import { Writable } from 'node:stream'
import { isbot } from 'isbot'
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from 'react-dom/server'
import { ServerRouter, type EntryContext } from 'react-router'
import { NonceProvider } from './lib/nonce.tsx'

export const streamTimeout = 5_000

// Same name as CSP_NONCE_HEADER in server/http/security-headers.ts (app code does not import server/).
const NONCE_HEADER = 'x-clockwork-csp-nonce'

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders })
  }
  const nonce = request.headers.get(NONCE_HEADER) ?? ''

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const userAgent = request.headers.get('user-agent')
    // Bots and SPA mode wait for all content; people get the shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000)

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true
          // As when streamed: the status is the shell's (an error in a boundary the client retries is not a 500).
          const status = responseStatusCode
          const chunks: Buffer[] = []
          const body = new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk)
              callback()
            },
            final(callback) {
              clearTimeout(timeoutId)
              timeoutId = undefined
              responseHeaders.set('Content-Type', 'text/html')
              resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status }))
              callback()
            },
          })
          pipe(body)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // Errors inside the shell are logged by React Router; only streamed ones land here.
          if (shellRendered) console.error(error)
        },
      },
    )
  })
}
