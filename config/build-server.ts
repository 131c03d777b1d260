/**
 * The part of `npm run build` after React Router's (which bundles the server with the routes: see
 * vite.config.ts). With esbuild: the migration command (build/migrate.js, for release commands that
 * migrate without starting a server; a process of its own, so its copy of the database code is the
 * only one there), the worker thread that judges command lines (build/judge-worker.js, beside
 * build/server/ where policy/judge.ts looks for it; a thread of its own with its own module graph)
 * and the machine client people download (build/machines/client.mjs).
 * npm packages stay external.
 */
import path from 'node:path'
import { build, type BuildOptions } from 'esbuild'
import { buildMachineClient, CLIENT_BUNDLE } from '../server/machines/build-client.ts'

const ROOT = path.resolve(import.meta.dirname, '..')

const NODE_BUNDLE: BuildOptions = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
}

/**
 * The judge's worker, bundled into `dir` beside a server build in `dir/server/` (policy/judge.ts
 * looks for `../judge-worker.js` from the bundle it is in). The tests' routes build needs one too.
 */
export function bundleJudgeWorker(dir: string) {
  return build({
    ...NODE_BUNDLE,
    entryPoints: { 'judge-worker': 'server/environments/policy/judge-worker.ts' },
    outdir: dir,
  })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now()
  await Promise.all([
    build({ ...NODE_BUNDLE, entryPoints: { migrate: 'server/db/migrate-cli.ts' }, outdir: 'build' }),
    bundleJudgeWorker('build'),
    buildMachineClient(),
  ])
  console.log(
    `bundled build/migrate.js, build/judge-worker.js and ${path.relative('.', CLIENT_BUNDLE)} in ${Date.now() - started} ms`,
  )
}
