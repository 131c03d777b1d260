/**
 * The second half of `npm run build`: bundles the server entry and the migration command with
 * esbuild into plain JavaScript (build/server-main.js, build/migrate.js), so production runs
 * `node build/server-main.js`: no TypeScript compiler at boot or in the request path, and one
 * process (no npm → sh → tsx chain). npm packages stay external (node_modules is installed in
 * production); `#server/*` and `#app/*` resolve through package.json "imports".
 */
import { build, type BuildOptions } from 'esbuild'

export const serverBuildOptions: BuildOptions = {
  entryPoints: { 'server-main': 'server/main.ts', migrate: 'server/db/migrate-cli.ts' },
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
  await build(serverBuildOptions)
  console.log(`server bundled into build/server-main.js and build/migrate.js in ${Date.now() - started} ms`)
}
