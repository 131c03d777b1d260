/**
 * Bundles the machine client (server/machines/client/main.ts) into one self-contained ES module
 * for Node 20+, with `ws` and `json-rpc-2.0` inlined. `npm run build` writes it to
 * build/machines/client.mjs (config/build-server.ts); the dev server builds it on first request when that file is missing.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { clientBuildOf } from './protocol.ts'

export const CLIENT_BUNDLE = path.resolve('build/machines/client.mjs')
// cwd-relative like the bundle: route modules run bundled in production and through Vite in dev.
const ENTRY = path.resolve('server/machines/client/main.ts')

/** Beside the bundle: the project's source files esbuild read to make it, for the staleness check. */
const inputsFile = (outfile: string) => `${outfile}.inputs.json`

export async function buildMachineClient(outfile = CLIENT_BUNDLE): Promise<void> {
  const { build } = await import('esbuild')
  mkdirSync(path.dirname(outfile), { recursive: true })
  const { metafile } = await build({
    entryPoints: [ENTRY],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // ws loads these native speed-ups optionally inside try/catch.
    external: ['bufferutil', 'utf-8-validate'],
    // ws is CommonJS and requires Node built-ins; give the ES module a real require.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  })
  const sources = Object.keys(metafile.inputs)
    .filter((input) => !input.includes('node_modules/'))
    .map((input) => path.resolve(input))
  writeFileSync(inputsFile(outfile), JSON.stringify(sources))
}

let building: Promise<void> | undefined

/**
 * Whether a source file of the bundle changed after it was made (dev edits): the files esbuild
 * read, as it listed them, so a server module the client comes to import counts without a list
 * kept by hand. A bundle without that list (made by an older build) counts as stale.
 */
export function bundleIsStale(outfile = CLIENT_BUNDLE): boolean {
  if (!existsSync(inputsFile(outfile))) return true
  const built = statSync(outfile).mtimeMs
  const sources = JSON.parse(readFileSync(inputsFile(outfile), 'utf8')) as string[]
  return sources.some((file) => !existsSync(file) || statSync(file).mtimeMs > built)
}

/** The bundle's text; outside production built on demand when missing or older than its sources. */
export async function machineClientSource(production: boolean): Promise<string | undefined> {
  if (!production && (!existsSync(CLIENT_BUNDLE) || bundleIsStale())) {
    building ??= buildMachineClient().finally(() => (building = undefined))
    await building
  }
  if (!existsSync(CLIENT_BUNDLE)) {
    return undefined
  }
  return readFileSync(CLIENT_BUNDLE, 'utf8')
}

let served: { mtimeMs: number; build: string } | undefined

/**
 * The build of the client this server hands out now (protocol.ts `clientBuildOf`), read again only
 * when the bundle changes; null when there is none to compare with (not built yet).
 */
export function servedClientBuild(): string | null {
  if (!existsSync(CLIENT_BUNDLE)) return null
  const { mtimeMs } = statSync(CLIENT_BUNDLE)
  if (served?.mtimeMs !== mtimeMs) served = { mtimeMs, build: clientBuildOf(readFileSync(CLIENT_BUNDLE)) }
  return served.build
}
