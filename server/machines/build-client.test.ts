import { mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { buildMachineClient, bundleIsStale } from './build-client.ts'

const dir = mkdtempSync(path.join(tmpdir(), 'machine-client-'))
const outfile = path.join(dir, 'client.mjs')
const setBuiltAt = (seconds: number) => utimesSync(outfile, seconds, seconds)

beforeAll(() => buildMachineClient(outfile), 60_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('lists the server modules the client imports, as esbuild read them, and no package', () => {
  const sources = JSON.parse(readFileSync(`${outfile}.inputs.json`, 'utf8')) as string[]
  const relative = sources.map((file) => path.relative(process.cwd(), file))
  expect(relative).toEqual(
    expect.arrayContaining([
      'server/machines/client/main.ts',
      'server/machines/protocol.ts',
      'server/lib/glob.ts',
    ]),
  )
  expect(relative.filter((file) => file.includes('node_modules'))).toEqual([])
})

it('is stale once any of those sources is newer than the bundle, and fresh otherwise', () => {
  expect(bundleIsStale(outfile)).toBe(false)
  setBuiltAt(0) // made before every source was last written
  expect(bundleIsStale(outfile)).toBe(true)
  setBuiltAt(Date.now() / 1000 + 60)
  expect(bundleIsStale(outfile)).toBe(false)
})

it('counts a bundle without its list of sources as stale', () => {
  rmSync(`${outfile}.inputs.json`)
  expect(bundleIsStale(outfile)).toBe(true)
})
