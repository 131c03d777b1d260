import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'

// The README's shell examples are copied into terminals: each ```sh block must at least parse
// (one once broke on the apostrophe in "yesterday's"), and every writing curl passes an Origin.
const blocks = [...readFileSync('README.md', 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!)

it.each(blocks.map((b, i) => [i, b] as const))('README sh block %i parses as shell', (_i, block) => {
  const result = spawnSync('bash', ['-n'], { input: block, encoding: 'utf8' })
  expect(result.stderr).toBe('')
  expect(result.status).toBe(0)
})

it('every curl call that writes sends an Origin header', () => {
  const calls = blocks
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => /^\s*curl /.test(line))
  const writing = calls.filter((c) => / -d | --data| -X (PUT|POST|PATCH|DELETE)/.test(c))
  expect(writing.length).toBeGreaterThan(0)
  for (const call of writing) expect(call).toMatch(/-H ["']origin: /)
})
