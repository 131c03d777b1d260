/**
 * HTML → Markdown for web_fetch, off the event loop. A fetched page is whatever its server sent:
 * turndown walks the parsed tree recursively (a page of 200,000 nested `<div>`s took minutes) and
 * finding `<title>` or `<main>` in unclosed tags is quadratic, so the conversion runs in a worker
 * thread that is terminated past a time limit, with a capped heap, one worker per page.
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/** Longest a page's conversion may take. */
export const HTML_CONVERT_TIMEOUT_MS = 5_000
/** The worker's heap ceiling: a 2 MiB page parses well under it. */
const HTML_CONVERT_HEAP_MB = 256

export type Converted = { title: string | null; content: string }

/** Thrown when a page cannot be converted within the limits. */
export class PageUnreadable extends Error {
  override name = 'PageUnreadable'
}

// Plain JavaScript (eval'd in the worker: no bundler helpers, no TypeScript). The searches for
// <title> and <main>/<article> are linear: one indexOf each, no backtracking.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const TurndownService = require(workerData.turndown)
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' })
turndown.remove(['script', 'style', 'noscript', 'iframe', 'head', 'form', 'button'])
turndown.remove((node) => node.nodeName.toLowerCase() === 'svg')
const html = workerData.html
const lower = html.toLowerCase()
const isNameEnd = (c) => c === undefined || !/[A-Za-z0-9_]/.test(c)
function openTag(name, from) {
  for (let at = lower.indexOf('<' + name, from); at >= 0; at = lower.indexOf('<' + name, at + 1)) {
    if (isNameEnd(lower[at + name.length + 1])) {
      const gt = lower.indexOf('>', at)
      return gt < 0 ? null : { at, gt }
    }
  }
  return null
}
function titleOf() {
  const open = openTag('title', 0)
  if (!open) return null
  const close = lower.indexOf('</title>', open.gt)
  if (close < 0) return null
  return html.slice(open.gt + 1, close).replace(/\\s+/g, ' ').trim() || null
}
function mainPart() {
  let best = null
  for (const name of ['main', 'article']) {
    const open = openTag(name, 0)
    const close = open ? lower.lastIndexOf('</' + name + '>') : -1
    if (open && close > open.gt && (!best || open.at < best.at))
      best = { at: open.at, end: close + name.length + 3 }
  }
  return best ? html.slice(best.at, best.end) : html
}
const content = turndown.turndown(mainPart()).replace(/\\n{3,}/g, '\\n\\n').trim()
parentPort.postMessage({ title: titleOf(), content })
`

const turndownPath = createRequire(import.meta.url).resolve('turndown')

/** The page's title and its main part as Markdown. @throws PageUnreadable past the limits. */
export function htmlToMarkdown(html: string, timeoutMs = HTML_CONVERT_TIMEOUT_MS): Promise<Converted> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { html, turndown: turndownPath },
      resourceLimits: { maxOldGenerationSizeMb: HTML_CONVERT_HEAP_MB },
    })
    let settled = false
    const settle = (fn: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void worker.terminate()
      fn()
    }
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(new PageUnreadable(`the page is too complex to read (over ${timeoutMs / 1000} s)`)),
        ),
      timeoutMs,
    )
    worker.on('message', (out: Converted) => settle(() => resolve(out)))
    worker.on('error', (err) =>
      settle(() => reject(new PageUnreadable(`the page could not be read: ${err.message}`))),
    )
    worker.on('exit', (code) =>
      settle(() => reject(new PageUnreadable(`the page could not be read (exit ${code})`))),
    )
  })
}
