/**
 * `npm run bench:web` (run `npm run build` first: it measures the built server, as production runs
 * it). Starts `node build/server/index.js` on a fresh database (the machine's Postgres, or PGlite
 * with --pglite), signs up two people, seeds 100 and 1,000 jobs through the API, and drives the API
 * and the pages with autocannon at each concurrency for a fixed time. Prints req/s, latency
 * percentiles, bytes per response (as a browser would get it: with Accept-Encoding), each route's
 * throughput as a ratio to /health in the same run, and the server's RSS: idle, peak, at the end of
 * the load and after a rest. See bench/RESULTS.md.
 *
 * Modes (issue 27), each on a server of its own, printed side by side at the end:
 *   quiet     the page cache on, nothing else writing
 *   busy      the page cache on, while the scheduler runs 20 every-minute jobs in the organisation
 *             whose pages are measured (against the fake model, answering after 1 s) and another
 *             organisation writes (a job changed every 100 ms)
 *   uncached  PAGE_CACHE=false: every request rendered
 *
 *   --modes L          which modes, comma-separated (default quiet,busy,uncached)
 *   --no-page-cache    the same as --modes uncached
 *   --duration S       seconds per route and concurrency (default 10)
 *   --warmup S         seconds of unmeasured load on each route first, so V8 has compiled its code
 *                      (default 3; 0 measures from a cold start)
 *   --round-minutes M  instead of --duration: split M minutes of load per round over the rows
 *                      (issue 19's soak: `--round-minutes 5 --rounds 3`)
 *   --connections L    concurrencies, comma-separated (default 10)
 *   --rounds N         repeat the whole load N times (memory soak: does RSS climb?)
 *   --rest S           seconds of rest after each round before RSS is read again (default 30)
 *   --routes L         only these routes (names as printed), comma-separated
 *   --pglite           the embedded database instead of Postgres
 *   --node-flags=…     extra node flags for the server, e.g. --node-flags=--max-old-space-size=256
 *   --memory-max M     run the server in a cgroup with memory.max = M MiB (needs a writable
 *                      cgroup v2 tree); reports OOM kills
 *   --cpu-prof         profile the server during the load (not start-up or seeding); prints the
 *                      top self-time functions
 *   --heap-snapshots   heap snapshots idle and after each round's rest; prints what grew
 */
import './lib/quiet.ts'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { createMemoryCgroup, type MemoryCgroup } from './lib/cgroup.ts'
import { createDatabase, describeMachine, dropDatabase, closeAdmin } from './lib/pg.ts'
import { heapGroups, heapGrowth, topSelfTime } from './lib/profiles.ts'
import { startProfiler, type Profiler } from './lib/inspector.ts'
import { seedPerson } from './lib/seed-web.ts'
import { freePort, startBenchServer } from './lib/server.ts'
import { table } from './lib/stats.ts'
import { load, responseBytes, type Route } from './lib/load.ts'
import { startFakeAnthropic, type FakeAnthropic } from '../tests/support/fake-anthropic.ts'
import type { ApiClient } from '../tests/support/api-client.ts'

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    'round-minutes': { type: 'string' },
    connections: { type: 'string', default: '10' },
    modes: { type: 'string', default: 'quiet,busy,uncached' },
    rounds: { type: 'string', default: '1' },
    rest: { type: 'string', default: '30' },
    routes: { type: 'string' },
    pglite: { type: 'boolean', default: false },
    'node-flags': { type: 'string', default: '' },
    'memory-max': { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    'heap-snapshots': { type: 'boolean', default: false },
    'no-page-cache': { type: 'boolean', default: false },
  },
})
type Mode = 'quiet' | 'busy' | 'uncached'
const MODES: Record<Mode, string> = {
  quiet: 'cache on, quiet',
  busy: 'cache on, scheduler + other orgs writing',
  uncached: 'PAGE_CACHE=false',
}
const modes = (args['no-page-cache'] ? ['uncached'] : args.modes.split(',')).map((m) => m.trim()) as Mode[]
for (const m of modes) if (!(m in MODES)) throw new Error(`--modes: unknown mode ${m}`)
type Measured = {
  route: string
  connections: number
  rps: number
  p50: number
  p99: number
  cpuPerRequest: number
}
const byMode = new Map<Mode, Measured[]>()
let duration = Number(args.duration)
const concurrencies = args.connections.split(',').map(Number)
const rounds = Number(args.rounds)
const restSeconds = Number(args.rest)
const outDir = path.resolve('bench/out', `web-${new Date().toISOString().replace(/[:.]/g, '-')}`)
mkdirSync(outDir, { recursive: true })
const t0 = Date.now()
const log = (message: string) => console.log(`[${Math.round((Date.now() - t0) / 1000)} s] ${message}`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const mb = (v: number) => `${Math.round(v)} MB`
let stopping = false

async function main() {
  const machine = await describeMachine()
  log(`machine: ${machine.cpu}, ${machine.memoryGb} GB, ${machine.node}, load ${machine.loadAverage}`)
  const results: Record<string, unknown> = { machine, args }
  for (const mode of modes) {
    log(`mode ${mode}: ${MODES[mode]}`)
    results[mode] = await runMode(mode)
  }
  await closeAdmin()
  if (modes.length > 1) printModes()
  writeFileSync(path.join(outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`)
  log(
    `figures in ${path.relative(process.cwd(), outDir)}/results.json; load now ${os.loadavg()[0]!.toFixed(2)}`,
  )
}

/** The last round's figures of every mode, one column group per mode. */
function printModes() {
  const first = byMode.get(modes[0]!) ?? []
  const rows = first.map(({ route, connections }) => {
    const cells = [route, String(connections)]
    for (const mode of modes) {
      const all = byMode.get(mode) ?? []
      const m = all.find((x) => x.route === route && x.connections === connections)
      const health = all.find((x) => x.route === 'health' && x.connections === connections)
      cells.push(
        m && health
          ? `${m.rps.toFixed(0)} (${(m.rps / health.rps).toFixed(2)}×) p99 ${m.p99} ms, ${m.cpuPerRequest.toFixed(2)} ms CPU`
          : '',
      )
    }
    return cells
  })
  console.log(`\nModes side by side: req/s (÷ /health), p99, server CPU per request\n`)
  console.log(table(['route', 'conc', ...modes.map((m) => MODES[m])], rows))
}

async function runMode(mode: Mode) {
  const dbName = 'bench_web'
  const pgliteDir = args.pglite ? mkdtempSync(path.join(os.tmpdir(), 'clockwork-bench-pglite-')) : ''
  const databaseEnv = args.pglite
    ? { DATABASE_URL: undefined, PGLITE_DIR: pgliteDir }
    : { DATABASE_URL: await createDatabase(dbName) }
  const inspectPort = await freePort()
  const nodeFlags = [
    ...args['node-flags'].split(' ').filter(Boolean),
    ...(args['cpu-prof'] ? [`--inspect=127.0.0.1:${inspectPort}`] : []),
    ...(args['heap-snapshots'] ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${outDir}`] : []),
  ]
  let cgroup: MemoryCgroup | undefined
  if (args['memory-max']) {
    cgroup = createMemoryCgroup(`clockwork-bench-${process.pid}`, Number(args['memory-max']))
    log(`server runs in ${cgroup.dir} with a ${args['memory-max']} MiB limit`)
  }
  // uncached measures every request rendered; busy runs the scheduler against the fake model.
  let fake: FakeAnthropic | undefined
  if (mode === 'busy') fake = await startFakeAnthropic({ fallback: { text: 'Done.' }, delayMs: 1000 })
  const env = {
    ...databaseEnv,
    ...(mode === 'uncached' ? { PAGE_CACHE: 'false' } : {}),
    ...(fake ? { ANTHROPIC_API_KEY: 'sk-bench-web', ANTHROPIC_BASE_URL: fake.baseURL } : {}),
  }
  const server = await startBenchServer({ nodeFlags, env, wrap: cgroup?.wrap })
  server.child.on('exit', (code, signal) => {
    if (!stopping) log(`SERVER DIED: exit ${code} signal ${signal}`)
  })
  log(`server up in ${server.bootMs} ms (${args.pglite ? 'PGlite' : 'Postgres'}), RSS ${mb(server.rssMb())}`)
  const result: Record<string, unknown> = { mode, bootMs: server.bootMs, bootRssMb: server.rssMb() }
  let busy: { stop(): Promise<void> } | undefined

  try {
    // The large person (another organisation) gets 1,000 jobs only when a (1,000) route is measured.
    const largeCount = !args.routes || args.routes.includes('1,000') ? 1_000 : 100
    const small = await seedPerson(server.baseUrl, 'small', 100)
    const large = await seedPerson(server.baseUrl, 'large', largeCount)
    log(`seeded 100 + ${largeCount} jobs`)
    if (mode === 'busy') busy = await startBusy(small.client, large.client, large.jobIds)
    const all: Route[] = [
      { name: 'health', path: '/_agent-native/health' },
      { name: 'api jobs (100)', path: '/_agent-native/jobs', cookie: small.cookie },
      { name: 'api jobs (1,000)', path: '/_agent-native/jobs', cookie: large.cookie },
      { name: 'api job', path: `/_agent-native/jobs/${small.jobIds[7]}`, cookie: small.cookie },
      { name: 'page /jobs (100)', path: '/jobs', cookie: small.cookie },
      { name: 'page /jobs (1,000)', path: '/jobs', cookie: large.cookie },
      { name: 'page job', path: `/jobs/${small.jobIds[7]}`, cookie: small.cookie },
      // The least a page can cost: the document and its not-found boundary, no session, no data,
      // no layout. Every page pays at least this; it bounds what any page's ratio can reach.
      { name: 'page 404 (floor)', path: '/no-such-page', status: 404 },
    ]
    // Names hold commas of their own ("page /jobs (1,000)"): split only where no digit follows.
    const wanted = args.routes?.split(/,(?!\d)/).map((r) => r.trim())
    const routes = all.filter((r) => r.name === 'health' || !wanted || wanted.includes(r.name))
    if (args['round-minutes']) {
      duration = Math.max(
        1,
        Math.round((Number(args['round-minutes']) * 60) / (routes.length * concurrencies.length)),
      )
      log(`${args['round-minutes']} min per round: ${duration} s per row`)
    }
    const bytes = new Map<string, number>()
    for (const route of routes) bytes.set(route.name, await responseBytes(server.baseUrl, route))
    // Unmeasured: a route's first seconds include V8 compiling its code (measured cold, the first
    // page row cost 26 ms of CPU a page, 14 ms warm; bench/RESULTS.md, decision 0334).
    const warmup = Number(args.warmup)
    if (warmup > 0) {
      for (const route of routes) await load(server.baseUrl, route, concurrencies[0]!, warmup)
      log(`warmed up: ${warmup} s of load on each route`)
    }

    await sleep(5_000)
    const idleRss = server.rssMb()
    log(`idle RSS ${mb(idleRss)}`)
    const snapshots = args['heap-snapshots'] ? [await snapshot(server, 'idle')] : []
    const roundResults = []
    let profiler: Profiler | undefined
    if (args['cpu-prof']) profiler = await startProfiler(inspectPort)
    for (let round = 1; round <= rounds; round++) {
      let peak = 0
      const sampler = setInterval(() => (peak = Math.max(peak, server.rssMb())), 250)
      const rows: string[][] = []
      const measured = []
      for (const connections of concurrencies) {
        let healthRps = NaN
        for (const route of routes) {
          const cpuBefore = server.cpuMs()
          const r = await load(server.baseUrl, route, connections, duration)
          // The server's CPU per answered request during the row (its background work included).
          const cpuPerRequest = (server.cpuMs() - cpuBefore) / Math.max(1, r.total)
          await drained(server.baseUrl)
          if (route.name === 'health') healthRps = r.rps
          measured.push({
            route: route.name,
            connections,
            ...r,
            cpuPerRequest,
            bytes: bytes.get(route.name),
          })
          rows.push([
            route.name,
            String(connections),
            r.rps.toFixed(0),
            `${(r.rps / healthRps).toFixed(2)}`,
            `${r.p50} ms`,
            `${r.p99} ms`,
            `${r.max} ms`,
            `${cpuPerRequest.toFixed(2)} ms`,
            String(bytes.get(route.name)),
            r.failures ? `${r.failures} failed` : '',
          ])
        }
      }
      clearInterval(sampler)
      const endRss = server.rssMb()
      await sleep(restSeconds * 1000)
      const restRss = server.rssMb()
      console.log(`\nRound ${round} of ${rounds} (${duration} s per row, Accept-Encoding: gzip, br)\n`)
      console.log(
        table(
          ['route', 'conc', 'req/s', '÷ health', 'p50', 'p99', 'max', 'CPU/req', 'bytes/resp', 'errors'],
          rows,
        ),
      )
      const answered = measured.reduce((n, m) => n + m.total, 0)
      const failed = measured.reduce((n, m) => n + m.failures, 0)
      console.log(`\nRequests answered: ${answered}; failed (non-2xx, errors, timeouts): ${failed}`)
      console.log(
        `RSS: idle ${mb(idleRss)}, peak ${mb(peak)}, end of load ${mb(endRss)}, ${restSeconds} s later ${mb(restRss)}`,
      )
      roundResults.push({ round, measured, rss: { idle: idleRss, peak, end: endRss, rest: restRss } })
      if (args['heap-snapshots']) snapshots.push(await snapshot(server, `round-${round}`))
    }
    result.rounds = roundResults
    byMode.set(mode, roundResults.at(-1)!.measured)
    if (rounds > 1) {
      console.log(`\nRounds (${duration} s per row, ${routes.length * concurrencies.length} rows each)\n`)
      console.log(
        table(
          ['round', 'RSS peak', 'end of load', `${restSeconds} s later`, 'answered', 'failed'],
          roundResults.map((r) => [
            String(r.round),
            mb(r.rss.peak),
            mb(r.rss.end),
            mb(r.rss.rest),
            String(r.measured.reduce((n, m) => n + m.total, 0)),
            String(r.measured.reduce((n, m) => n + m.failures, 0)),
          ]),
        ),
      )
    }
    if (profiler) writeFileSync(path.join(outDir, 'load.cpuprofile'), JSON.stringify(await profiler.stop()))
    if (snapshots.length > 1) printHeapGrowth(snapshots)
  } finally {
    await busy?.stop()
    stopping = true
    if (cgroup) {
      const { peakMb, oomKills } = cgroup.stats()
      console.log(`\ncgroup (${args['memory-max']} MiB limit): peak ${mb(peakMb)}, OOM kills ${oomKills}`)
      result.cgroup = { limitMb: Number(args['memory-max']), peakMb, oomKills }
    }
    await server.stop()
    cgroup?.remove()
    if (args.pglite) rmSync(pgliteDir, { recursive: true, force: true })
    else await dropDatabase(dbName)
    await fake?.close()
  }
  if (args['cpu-prof']) printProfile()
  return result
}

/**
 * The busy mode's background: 20 every-minute jobs in the measured organisation (the scheduler
 * fires them, runs them against the fake model and records their runs), and another organisation
 * changing one of its jobs every 100 ms. Waits for the first minute's runs to start.
 */
async function startBusy(measured: ApiClient, other: ApiClient, otherJobIds: string[]) {
  for (let i = 0; i < 20; i++) {
    const res = await measured.post('/_agent-native/jobs', {
      name: `every-minute-${i}`,
      schedule: '* * * * *',
      instructions: `Busy job ${i}: say done.`,
    })
    if (res.status !== 201) throw new Error(`busy job ${i}: ${res.status} ${JSON.stringify(res.body)}`)
  }
  let running = true
  let writes = 0
  const writer = (async () => {
    for (let i = 0; running; i++) {
      const id = otherJobIds[i % otherJobIds.length]!
      await other.patch(`/_agent-native/jobs/${id}`, {
        instructions: `Changed by the other organisation (${i})`,
      })
      writes++
      await sleep(100)
    }
  })()
  // The next minute boundary, plus a little: the scheduler has fired the first 20 runs.
  const wait = 60_000 - (Date.now() % 60_000) + 3_000
  log(
    `busy: 20 every-minute jobs and the other organisation writing; waiting ${Math.round(wait / 1000)} s for the first fires`,
  )
  await sleep(wait)
  return {
    stop: async () => {
      running = false
      await writer
      log(`busy: the other organisation wrote ${writes} times`)
    },
  }
}

/** Waits until requests cut off at the end of a row are done, so they do not slow the next row. */
async function drained(baseUrl: string) {
  await sleep(1_000)
  for (let i = 0; i < 60; i++) {
    const started = Date.now()
    await fetch(`${baseUrl}/_agent-native/health`).catch(() => undefined)
    if (Date.now() - started < 50) return
    await sleep(500)
  }
}

/** Asks the server for a heap snapshot (SIGUSR2) and waits until the file is complete. */
async function snapshot(server: { pid: number; baseUrl: string }, label: string): Promise<string> {
  const before = new Set(readdirSync(outDir))
  process.kill(server.pid, 'SIGUSR2')
  for (;;) {
    await sleep(1_000)
    const file = readdirSync(outDir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f))
    if (!file) continue
    // The server writes it synchronously: once it answers /health again the file is complete.
    while (
      !(await fetch(`${server.baseUrl}/_agent-native/health`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      await sleep(500)
    }
    log(`heap snapshot ${label}: ${file}`)
    return path.join(outDir, file)
  }
}

function printHeapGrowth(files: string[]) {
  const first = heapGroups(files[0]!)
  for (const file of files.slice(1)) {
    const growth = heapGrowth(first, heapGroups(file))
    console.log(
      `\nHeap (live, after GC): idle ${mb(growth.beforeMb)} → ${path.basename(file)} ${mb(growth.afterMb)}`,
    )
    console.log(
      table(
        ['grew', 'objects', 'bytes'],
        growth.grew.map((g) => [g.key, String(g.count), String(g.bytes)]),
      ),
    )
  }
}

function printProfile() {
  const file = readdirSync(outDir).find((f) => f.endsWith('.cpuprofile'))
  if (!file) return console.log('no CPU profile written')
  const { busyMs, entries } = topSelfTime(path.join(outDir, file), 20)
  console.log(`\nCPU profile: ${Math.round(busyMs)} ms busy; top self time\n`)
  console.log(
    table(
      ['function', 'where', 'self ms', 'share of busy'],
      entries.map((e) => [e.name, e.where, e.ms.toFixed(0), `${(e.share * 100).toFixed(1)}%`]),
    ),
  )
}

await main()
