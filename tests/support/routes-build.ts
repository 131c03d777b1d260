/**
 * The routes, built once for every test app that needs them (decision 0332). A test app serves
 * this build, as the production server serves its own, instead of loading every route and server
 * module through a Vite dev server of its own: that load cost each test file about ten seconds of
 * CPU, and CI runs about sixty such files on two cores.
 *
 * The build is React Router's own entry (the routes alone, without server/main.ts), made with
 * `react-router build` into `build/test-routes`, with the judge's worker beside it as the production
 * build has it (config/build-server.ts). It is made again whenever a source it is built
 * from has changed since (a fingerprint of their names, sizes and times), under a lock, so test
 * files starting side by side wait for one build instead of making their own.
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { vi } from 'vitest'
import { bundleJudgeWorker } from '../../config/build-server.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
/** Relative to the project, as React Router records it (the static files are found from it). */
const ROUTES_BUILD_DIR = 'build/test-routes'
/** What the build reads: the app, the server, their configuration and the locked packages. */
const SOURCES = [
  'app',
  'server',
  'config',
  'drizzle',
  'public',
  'package-lock.json',
  'react-router.config.ts',
  'tsconfig.json',
  'vite.config.ts',
]
/** A lock older than this was left by a build that died. */
const STALE_LOCK_MS = 10 * 60_000
const BUILD_TIMEOUT_MS = 5 * 60_000

let built: Promise<string> | undefined

/** The path of the routes build's server entry, made first when missing or out of date. */
export function routesBuild(): Promise<string> {
  built ??= ensureRoutesBuild()
  return built
}

async function ensureRoutesBuild(): Promise<string> {
  const dir = path.join(ROOT, ROUTES_BUILD_DIR)
  const entry = path.join(dir, 'server', 'index.js')
  const stamp = path.join(dir, 'sources.sha256')
  const fingerprint = sourcesFingerprint()
  const current = () => existsSync(entry) && existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint
  if (current()) return entry
  const lock = `${dir}.lock`
  await takeLock(lock)
  try {
    // Another process may have built it while this one waited for the lock.
    if (current()) return entry
    rmSync(dir, { recursive: true, force: true })
    await reactRouterBuild()
    await bundleJudgeWorker(dir)
    writeFileSync(stamp, fingerprint)
    return entry
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/** Names, sizes and modification times of every source under `root` the build reads. */
export function sourcesFingerprint(root = ROOT): string {
  const hash = createHash('sha256')
  const visit = (relative: string) => {
    const absolute = path.join(root, relative)
    if (!existsSync(absolute)) return
    const stat = statSync(absolute)
    if (stat.isDirectory()) {
      for (const name of readdirSync(absolute).sort()) visit(path.join(relative, name))
    } else if (!/\.test\.tsx?$/.test(relative)) {
      hash.update(`${relative}\0${stat.size}\0${stat.mtimeMs}\n`)
    }
  }
  for (const source of SOURCES) visit(source)
  return hash.digest('hex')
}

async function takeLock(lock: string): Promise<void> {
  mkdirSync(path.dirname(lock), { recursive: true })
  const attempt = () => {
    try {
      mkdirSync(lock)
      return true
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true })
      return false
    }
  }
  await vi.waitFor(
    () => {
      if (!attempt()) throw new Error(`another process holds the routes build's lock (${lock})`)
    },
    { timeout: BUILD_TIMEOUT_MS, interval: 250 },
  )
}

/** `react-router build` with its output directory moved; its output is shown only if it fails. */
async function reactRouterBuild(): Promise<void> {
  try {
    await promisify(execFile)(path.join(ROOT, 'node_modules/.bin/react-router'), ['build'], {
      cwd: ROOT,
      env: { ...process.env, CLOCKWORK_ROUTES_BUILD_DIR: ROUTES_BUILD_DIR, NODE_ENV: 'production' },
      timeout: BUILD_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    })
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    throw new Error(`react-router build of the test routes failed:\n${`${stdout}${stderr}`.slice(-4000)}`, {
      cause: error,
    })
  }
}
