/**
 * The order vitest starts files in (tests/support/long-files-first.ts): every file it names to start
 * first is a test file of the suite, so a renamed or moved file cannot silently drop to the back.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'
import { LONG_FILES } from '#tests/support/long-files-first.ts'

const root = path.resolve(import.meta.dirname, '../..')

it('names only test files that exist, each once', () => {
  expect(LONG_FILES.filter((file) => !existsSync(path.join(root, file)))).toEqual([])
  expect(LONG_FILES.every((file) => file.endsWith('.test.ts'))).toBe(true)
  expect(new Set(LONG_FILES).size).toBe(LONG_FILES.length)
})
