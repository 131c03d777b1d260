/**
 * The part of `npm run build` after React Router's (which bundles the server with the routes: see
 * vite.config.ts). With esbuild: the migration command (build/migrate.js, for release commands that
 * migrate without starting a server; a process of its own, so its copy of the database code is the
 * only one there) and the machine client people download (build/machines/client.mjs).
 * npm packages stay external.
 */
import path from 'node:path'
import { build, type BuildOptions } from 'esbuild'
import { buildMachineClient, CLIENT_BUNDLE } from '../server/machines/build-client.ts'

export const migrateBuildOptions: BuildOptions = {
  entryPoints: { migrate: 'server/db/migrate-cli.ts' },
  outdir: 'build',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now()
  await build(migrateBuildOptions)
  await buildMachineClient()
  console.log(
    `bundled build/migrate.js and ${path.relative('.', CLIENT_BUNDLE)} in ${Date.now() - started} ms`,
  )
}
