/**
 * `npm run bench:web-ab -- --base <dir>`: two production builds side by side with the page cache
 * off, for a machine that is never quiet. `--base` is another checkout with its own `npm run build`
 * (a `git worktree` of main, say); this checkout is "after". Both servers run at once, each on a
 * fresh database with 100 jobs; per round every route is loaded for `--seconds` on one build and
 * then on the other, the order alternating, so the machine's load drifts over both alike. Prints
 * each route's server CPU per request summed over the rounds, its ratio to /health's on the same
 * build, and the median req/s and p99 (bench/RESULTS.md, "Web: uncached path").
 *
 * `--before-flags` / `--after-flags`: node flags for each side's server instead (or as well), e.g.
 * `--after-flags=--max-semi-space-size=32` against this same checkout (`--base` defaults to it).
 */
import './lib/quiet.ts'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { closeAdmin, createDatabase, dropDatabase } from './lib/pg.ts'
import { seedPerson, type SeededPerson } from './lib/seed-web.ts'
import { startBenchServer, type BenchServer } from './lib/server.ts'
import { load, type Route } from './lib/load.ts'
import { table } from './lib/stats.ts'

const { values: args } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '4' },
    connections: { type: 'string', default: '10' },
    'before-flags': { type: 'string', default: '' },
    'after-flags': { type: 'string', default: '' },
  },
})
const flags = {
  before: args['before-flags'].split(' ').filter(Boolean),
  after: args['after-flags'].split(' ').filter(Boolean),
}
if (!args.base && flags.before.join(' ') === flags.after.join(' ')) {
  throw new Error('--base (a checkout with a build) or different --before-flags/--after-flags to compare')
}
const builds = { before: path.resolve(args.base ?? '.'), after: process.cwd() }
type Build = keyof typeof builds
// Named per run: two engineers' A/B runs at once would otherwise drop each other's databases.
const databaseOf = (build: Build) => `bench_ab_${build}_${process.pid}`
const ROUTES = ['health', 'api jobs (100)', 'page /jobs (100)', 'page job'] as const

function routesOf(seed: SeededPerson): Route[] {
  return [
    { name: ROUTES[0], path: '/_agent-native/health' },
    { name: ROUTES[1], path: '/_agent-native/jobs', cookie: seed.cookie },
    { name: ROUTES[2], path: '/jobs', cookie: seed.cookie },
    { name: ROUTES[3], path: `/jobs/${seed.jobIds[7]}`, cookie: seed.cookie },
  ]
}

const describe = (build: Build) => [path.basename(builds[build]), ...flags[build]].join(' ')

const servers = new Map<Build, BenchServer>()
const routes = new Map<Build, Route[]>()
try {
  for (const [build, dir] of Object.entries(builds) as [Build, string][]) {
    // The server runs `build/server/index.js` from the working directory it is spawned in.
    process.chdir(dir)
    const url = await createDatabase(databaseOf(build))
    const server = await startBenchServer({
      nodeFlags: flags[build],
      env: { DATABASE_URL: url, PAGE_CACHE: 'false' },
    })
    servers.set(build, server)
    routes.set(build, routesOf(await seedPerson(server.baseUrl, 'small', 100)))
  }
  process.chdir(builds.after)
  const connections = Number(args.connections)
  const sums = new Map<
    string,
    { cpuMs: number; answered: number; failures: number; rps: number[]; p99: number[] }
  >()
  for (const [build, server] of servers)
    for (const route of routes.get(build)!) await load(server.baseUrl, route, connections, 1)
  const loads: string[] = []
  for (let round = 0; round < Number(args.rounds); round++) {
    loads.push(os.loadavg()[0]!.toFixed(1))
    const order: Build[] = round % 2 ? ['after', 'before'] : ['before', 'after']
    for (let i = 0; i < ROUTES.length; i++) {
      for (const build of order) {
        const server = servers.get(build)!
        const route = routes.get(build)![i]!
        const cpuBefore = server.cpuMs()
        const r = await load(server.baseUrl, route, connections, Number(args.seconds))
        const sum = sums.get(`${build} ${route.name}`) ?? {
          cpuMs: 0,
          answered: 0,
          failures: 0,
          rps: [],
          p99: [],
        }
        sum.cpuMs += server.cpuMs() - cpuBefore
        sum.answered += r.total
        sum.failures += r.failures
        sum.rps.push(r.rps)
        sum.p99.push(r.p99)
        sums.set(`${build} ${route.name}`, sum)
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const cell = (build: Build, name: string) => {
    const s = sums.get(`${build} ${name}`)!
    const health = sums.get(`${build} health`)!
    const cpu = s.cpuMs / Math.max(1, s.answered)
    const ratio = cpu / (health.cpuMs / Math.max(1, health.answered))
    // A failed answer (non-2xx, error, timeout) is cheap and would flatter the CPU per request.
    const failed = s.failures ? `, ${s.failures} FAILED` : ''
    return `${cpu.toFixed(2)} ms (${ratio.toFixed(1)}×), ${median(s.rps).toFixed(0)} req/s, p99 ${median(s.p99)} ms${failed}`
  }
  console.log(
    `\nServer CPU per request (÷ /health's), median req/s and p99; c${connections}, PAGE_CACHE=false\n`,
  )
  console.log(
    table(
      ['route', `before (${describe('before')})`, `after (${describe('after')})`],
      ROUTES.map((name) => [name, cell('before', name), cell('after', name)]),
    ),
  )
  console.log(`\nLoad average at the start of each round: ${loads.join(', ')}`)
} finally {
  for (const [build, server] of servers) {
    await server.stop()
    await dropDatabase(databaseOf(build))
  }
  await closeAdmin()
}
