import { spawnSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'

// The shell examples of the README and docs/ are copied into terminals: each ```sh block must at
// least parse (one once broke on the apostrophe in "yesterday's"), and every writing curl passes
// an Origin.
const files = [
  'README.md',
  ...readdirSync('docs', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f)),
]
const blocks = files.flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map(
    (m, i) => [`${file} #${i}`, m[1]!] as const,
  ),
)

it('finds the shell blocks of the README and docs/', () => {
  expect(blocks.map(([name]) => name)).toEqual(expect.arrayContaining(['README.md #0', 'docs/api.md #0']))
})

it.each(blocks)('%s parses as shell', (_name, block) => {
  const result = spawnSync('bash', ['-n'], { input: block, encoding: 'utf8' })
  expect(result.stderr).toBe('')
  expect(result.status).toBe(0)
})

it('every curl call that writes sends an Origin header', () => {
  const calls = blocks
    .map(([, block]) => block)
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => /^\s*curl /.test(line))
  const writing = calls.filter((c) => / -d | --data| -X (PUT|POST|PATCH|DELETE)/.test(c))
  expect(writing.length).toBeGreaterThan(0)
  for (const call of writing) expect(call).toMatch(/-H ["']origin: /)
})
