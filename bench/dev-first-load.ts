/**
 * `npm run bench:dev`: how long the first page a developer sees takes in `npm run dev`. Starts the
 * development entry (server/dev.ts: Vite in middleware mode) on a free port over a fresh database,
 * signs a person up through the API, then opens /jobs in a fresh Chromium context (no HTTP cache)
 * and counts the requests, the bytes and the time until the page's `load` event and until it is
 * interactive (hydrated). Each run starts a new server process, so every module is transformed
 * again (Vite's pre-bundled dependencies in node_modules/.vite are kept unless --cold: that is a
 * developer's second `npm run dev`; --cold is their very first). The page is loaded twice per
 * server: first (nothing transformed yet) and again in a new context (transforms cached in the
 * server, nothing in the browser). Prints a table and the slowest requests. See bench/RESULTS.md.
 *
 *   --runs N    servers started one after another (default 3)
 *   --warmup N  servers started and loaded first, not counted (default 1: the pre-bundle is
 *               made then, as by a developer's earlier `npm run dev`; 0 with --cold)
 *   --cold      remove node_modules/.vite before each start (pre-bundling included in the figures)
 *   --top N     how many of the slowest requests to list (default 10)
 *   --list      print every request of the first load (URL, KiB)
 */
import './lib/quiet.ts'
import { rmSync } from 'node:fs'
import os from 'node:os'
import { parseArgs } from 'node:util'
import { chromium, type Browser } from '@playwright/test'
import { chromiumArgs, resolveChromium } from '../tests/support/chromium.ts'
import { startServerProcess } from '../tests/support/server-process.ts'

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1' },
    cold: { type: 'boolean', default: false },
    top: { type: 'string', default: '10' },
    list: { type: 'boolean', default: false },
  },
})

type Load = {
  requests: number
  moduleRequests: number
  kb: number
  loadMs: number
  interactiveMs: number
  slowest: { url: string; ms: number; kb: number }[]
  all: { url: string; kb: number }[]
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

async function loadJobs(browser: Browser, baseUrl: string, email: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  try {
    const signIn = await context.request.post(`${baseUrl}/_agent-native/auth/sign-in/email`, {
      headers: { origin: baseUrl },
      data: { email, password: 'password1234' },
    })
    if (!signIn.ok()) throw new Error(`sign-in: ${signIn.status()} ${await signIn.text()}`)
    const page = await context.newPage()
    const finished: { url: string; ms: number; bytes: number; script: boolean }[] = []
    page.on('requestfinished', (request) => {
      void request.sizes().then(
        (sizes) => {
          const timing = request.timing()
          finished.push({
            url: request.url().replace(baseUrl, ''),
            ms: timing.responseEnd > 0 ? timing.responseEnd : 0,
            bytes: sizes.responseBodySize + sizes.responseHeadersSize,
            script: request.resourceType() === 'script',
          })
        },
        () => {},
      )
    })
    const started = Date.now()
    await page.goto(`${baseUrl}/jobs`, { waitUntil: 'load', timeout: 300_000 })
    const loadMs = Date.now() - started
    // Interactive: React has hydrated the page's main element (it holds React's fiber then).
    await page.waitForFunction(
      () => {
        const main = document.querySelector('main')
        return !!main && Object.keys(main).some((key) => key.startsWith('__reactFiber'))
      },
      null,
      { timeout: 300_000 },
    )
    const interactiveMs = Date.now() - started
    await page.waitForLoadState('networkidle')
    const top = Number(args.top)
    return {
      requests: finished.length,
      moduleRequests: finished.filter((r) => r.script).length,
      kb: finished.reduce((sum, r) => sum + r.bytes, 0) / 1024,
      loadMs,
      interactiveMs,
      slowest: [...finished]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, top)
        .map((r) => ({ url: r.url, ms: Math.round(r.ms), kb: Math.round(r.bytes / 1024) })),
      all: finished.map((r) => ({ url: r.url, kb: Math.round(r.bytes / 1024) })),
    }
  } finally {
    await context.close()
  }
}

async function main() {
  const runs = Number(args.runs)
  console.log(
    `load average at start: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  const browser = await chromium.launch({ executablePath: resolveChromium(), args: chromiumArgs })
  const rows: { first: Load; again: Load; bootMs: number }[] = []
  try {
    const warmup = args.cold ? 0 : Number(args.warmup)
    for (let run = 1 - warmup; run <= runs; run++) {
      if (args.cold) rmSync('node_modules/.vite', { recursive: true, force: true })
      const booting = Date.now()
      const server = await startServerProcess('development', {
        LOG_LEVEL: 'warn',
        SCHEDULER_ENABLED: 'false',
      })
      const bootMs = Date.now() - booting
      try {
        const email = `bench-${run}-${Date.now()}@example.com`
        const signUp = await fetch(`${server.baseUrl}/_agent-native/auth/sign-up/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: server.baseUrl },
          body: JSON.stringify({ name: 'Bench', email, password: 'password1234' }),
        })
        if (!signUp.ok) throw new Error(`sign-up: ${signUp.status} ${await signUp.text()}`)
        const first = await loadJobs(browser, server.baseUrl, email)
        const again = await loadJobs(browser, server.baseUrl, email)
        if (run < 1) {
          console.log(`warm-up: boot ${bootMs} ms, first load ${first.loadMs} ms (not counted)`)
          continue
        }
        rows.push({ first, again, bootMs })
        console.log(
          `run ${run}: boot ${bootMs} ms; first load ${first.loadMs} ms (interactive ${first.interactiveMs} ms), ` +
            `${first.requests} requests (${first.moduleRequests} scripts), ${Math.round(first.kb)} KiB; ` +
            `again ${again.loadMs} ms (interactive ${again.interactiveMs} ms)`,
        )
        if (run === 1) {
          console.log('slowest requests of the first load:')
          for (const r of first.slowest)
            console.log(`  ${String(r.ms).padStart(6)} ms ${String(r.kb).padStart(6)} KiB  ${r.url}`)
          if (args.list) {
            console.log('every request of the first load:')
            for (const r of first.all) console.log(`  ${String(r.kb).padStart(6)} KiB  ${r.url}`)
          }
        }
      } finally {
        await server.stop()
      }
    }
  } finally {
    await browser.close()
  }
  const pick = (f: (r: (typeof rows)[number]) => number) => median(rows.map(f))
  console.log(
    `\nmedian of ${rows.length}: first load ${pick((r) => r.first.loadMs)} ms, interactive ${pick((r) => r.first.interactiveMs)} ms, ` +
      `${pick((r) => r.first.requests)} requests (${pick((r) => r.first.moduleRequests)} scripts), ${Math.round(pick((r) => r.first.kb))} KiB; ` +
      `again: load ${pick((r) => r.again.loadMs)} ms, interactive ${pick((r) => r.again.interactiveMs)} ms; ` +
      `server boot ${pick((r) => r.bootMs)} ms`,
  )
  console.log(
    `load average at end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
}

await main()
