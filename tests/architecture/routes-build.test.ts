/**
 * Test apps serve a build of the routes that is made again only when its sources change
 * (tests/support/routes-build.ts). A fingerprint that missed an edit would let every integration
 * test run yesterday's routes without a word, so what it notices is pinned here.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { sourcesFingerprint } from '#tests/support/routes-build.ts'

const root = mkdtempSync(path.join(os.tmpdir(), 'clockwork-routes-build-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const write = (relative: string, text: string, seconds = 1_700_000_000) => {
  const file = path.join(root, relative)
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, text)
  utimesSync(file, seconds, seconds)
}

it('changes when a route, a server module or the configuration changes, not when a test does', () => {
  write('app/routes/jobs.tsx', 'export default 1')
  write('server/jobs/service.ts', 'export const a = 1')
  write('server/jobs/service.test.ts', 'test')
  write('vite.config.ts', 'export default {}')
  const before = sourcesFingerprint(root)
  expect(sourcesFingerprint(root)).toBe(before)

  write('server/jobs/service.test.ts', 'a longer test', 1_700_000_100)
  expect(sourcesFingerprint(root)).toBe(before)

  const changes: Array<() => void> = [
    () => write('server/jobs/service.ts', 'export const a = 2', 1_700_000_100), // same size, newer
    () => write('app/routes/jobs.tsx', 'export default 12'), // same time, longer
    () => write('server/jobs/other.ts', ''), // a new module
    () => rmSync(path.join(root, 'server/jobs/other.ts')), // and gone again
    () => write('vite.config.ts', 'export default { x: 1 }'),
    () => write('package-lock.json', '{}'),
  ]
  let previous = before
  for (const change of changes) {
    change()
    const next = sourcesFingerprint(root)
    expect(next).not.toBe(previous)
    previous = next
  }
})
