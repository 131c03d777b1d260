/**
 * The poll watcher over a real folder (this disk's `find` listing), and over a listing a test
 * controls for the bounds: what a bounded listing did not reach is unknown, never deleted.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { diskScanner } from './watch-disk.ts'
import {
  differences,
  type ListedEntry,
  type Lister,
  MAX_POLL_DEPTH,
  MAX_SCAN_CHARS,
  pollTree,
  scanTree,
  type Scanner,
  stateIn,
} from './watch-poll.ts'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-poll-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const write = (rel: string, text: string) => {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
  writeFileSync(path.join(dir, rel), text)
}
const pairs = (events: { type: string; path: string }[]) => events.map((e) => [e.type, e.path])

/** Counts the listings of `scan`, so a test can wait for a poll to have happened. */
function counted(scan: Scanner) {
  let roots = 0
  const wrapped: Scanner = (bounds) => {
    roots++
    return scan(bounds)
  }
  return {
    list: wrapped,
    roots: () => roots,
    async untilListed(times: number) {
      const target = roots + times
      await expect.poll(() => roots, { timeout: 10_000, interval: 5 }).toBeGreaterThanOrEqual(target)
    },
  }
}

describe('the poll watcher over a folder', () => {
  it('reports files created, changed and deleted, one event per path, ignoring .git and node_modules', async () => {
    write('keep.txt', 'same')
    write('edit.txt', 'one')
    write('src/old.txt', 'bye')
    const watch = await pollTree(diskScanner(dir), { intervalMs: 60_000 })
    write('new.txt', 'hello')
    write('edit.txt', 'one and more')
    unlinkSync(path.join(dir, 'src/old.txt'))
    write('src/deep/er/file.ts', 'x')
    write('node_modules/pkg/index.js', 'x')
    write('.git/HEAD', 'ref')
    const events = await watch.stop()
    expect(pairs(events)).toEqual([
      ['change', 'edit.txt'],
      ['create', 'new.txt'],
      ['create', 'src/deep/er/file.ts'],
      ['delete', 'src/old.txt'],
    ])
    for (const e of events) expect(Number.isNaN(Date.parse(e.timestamp))).toBe(false)
  })

  it('sees a file that lived only while the command ran (between two listings) as deleted', async () => {
    const probe = counted(diskScanner(dir))
    const watch = await pollTree(probe.list, { intervalMs: 1 })
    write('tmp/scratch.txt', 'short-lived')
    await probe.untilListed(2) // at least one whole listing saw it
    rmSync(path.join(dir, 'tmp'), { recursive: true })
    expect(pairs(await watch.stop())).toEqual([['delete', 'tmp/scratch.txt']])
  })

  it('sees nothing, and does not throw, when the folder cannot be listed', async () => {
    const watch = await pollTree(diskScanner(path.join(dir, 'missing')))
    expect(await watch.stop()).toEqual([])
  })

  it('keeps no listing going after cancel', async () => {
    const probe = counted(diskScanner(dir))
    const watch = await pollTree(probe.list, { intervalMs: 1 })
    watch.cancel()
    const after = probe.roots()
    // A second watch on the same interval is the clock: by its fifth listing, a first watch still
    // going would have listed too.
    const witness = counted(diskScanner(dir))
    const other = await pollTree(witness.list, { intervalMs: 1 })
    await witness.untilListed(5)
    other.cancel()
    expect(probe.roots()).toBe(after)
  })
})

/** A tree held in memory: folder → entries. */
function memory(tree: Record<string, ListedEntry[]>): Lister {
  return async (d) => {
    const entries = tree[d]
    if (!entries) throw new Error(`${d}: no such folder`)
    return entries
  }
}
const file = (name: string, size: number, mtimeMs?: number): ListedEntry => ({
  name,
  type: 'file',
  size,
  ...(mtimeMs === undefined ? {} : { mtimeMs }),
})
const folder = (name: string): ListedEntry => ({ name, type: 'directory', size: 0 })

describe('the bounds of a listing', () => {
  it('stops descending after the entry limit; what it did not reach is unknown, not deleted', async () => {
    const tree = {
      '': [folder('a'), folder('b'), file('top.txt', 1)],
      a: [file('1.txt', 1), file('2.txt', 1)],
      b: [file('3.txt', 1)],
    }
    const whole = await scanTree(memory(tree))
    const bounded = await scanTree(memory(tree), { maxEntries: 3 })
    expect([...bounded.listed]).toEqual(['']) // a and b were seen but not listed
    expect(differences(whole, bounded)).toEqual([])
    // A file gone from a listed folder is a difference.
    const smaller = await scanTree(memory({ ...tree, '': [folder('a'), folder('b')] }))
    expect(differences(whole, smaller)).toEqual(['top.txt'])
    // A folder gone takes its files with it.
    const noB = await scanTree(memory({ '': [folder('a'), file('top.txt', 1)], a: tree.a }))
    expect(differences(whole, noB)).toEqual(['b/3.txt'])
  })

  it('goes no deeper than MAX_POLL_DEPTH folders, here and on this disk: what is below is unknown', async () => {
    const chain = Array.from({ length: MAX_POLL_DEPTH + 2 }, () => 'd')
    const at = (depth: number) => chain.slice(0, depth).join('/')
    const deepest = `${at(MAX_POLL_DEPTH + 2)}/f.txt`
    // A listing a test controls: every folder holds one folder, the last one a file.
    const lister: Lister = async (d) => {
      const depth = d === '' ? 0 : d.split('/').length
      return depth < chain.length ? [folder('d')] : [file('f.txt', 1)]
    }
    write(deepest, 'x')
    for (const scan of [await scanTree(lister), await diskScanner(dir)({})]) {
      expect(scan.dirs.has(at(MAX_POLL_DEPTH))).toBe(true)
      expect(scan.dirs.has(at(MAX_POLL_DEPTH + 1))).toBe(false)
      expect(scan.listed.has(at(MAX_POLL_DEPTH - 1))).toBe(true)
      // The folder at the limit was seen, not listed: a file below it is unknown, never deleted.
      expect(scan.listed.has(at(MAX_POLL_DEPTH))).toBe(false)
      expect(stateIn(scan, deepest)).toBe('unknown')
      expect(stateIn(scan, `${at(MAX_POLL_DEPTH - 1)}/gone.txt`)).toBe('absent')
    }
  })

  it('compares modification times when the listing has them, sizes only when it has not', async () => {
    const before = await scanTree(memory({ '': [file('a.txt', 5, 1000), file('b.txt', 5)] }))
    const after = await scanTree(memory({ '': [file('a.txt', 5, 2000), file('b.txt', 5)] }))
    expect(differences(before, after)).toEqual(['a.txt'])
  })

  it('a subfolder that vanished mid-listing is unknown; a root that cannot be listed fails the listing', async () => {
    const scan = await scanTree(memory({ '': [folder('gone'), file('x', 1)] }))
    expect(scan.dirs.has('gone')).toBe(true)
    expect(scan.listed.has('gone')).toBe(false)
    await expect(scanTree(memory({}))).rejects.toThrow(/no such folder/)
  })
})

describe('the path text of a listing', () => {
  /** Characters of every path a scan holds. */
  const held = (scan: { files: Map<string, unknown>; dirs: Set<string> }) =>
    [...scan.files.keys(), ...scan.dirs].reduce((n, p) => n + p.length, 0)

  it('of 200 files 60 folders of 250-character names down: at most MAX_SCAN_CHARS, the rest unknown', async () => {
    // A command's tree: each path is 15,000 characters, 3 MB in all (5,000 such entries were 80 MB
    // per listing). Made by a shell stepping down, as no single path this long can be named.
    const name = 'n'.repeat(250)
    execFileSync('bash', [
      '-c',
      `cd "$1" && for i in $(seq 60); do mkdir $2 && cd $2 || exit 1; done && for i in $(seq 100 299); do : > $i$2; done`,
      'tree',
      dir,
      name,
    ])
    const chain = Array.from({ length: 60 }, () => name)
    const bottom = chain.join('/')
    const files = Array.from({ length: 200 }, (_, i) => file(`${i + 100}${name}`, 0))
    const lister: Lister = async (d) => {
      const depth = d === '' ? 0 : d.split('/').length
      return depth < chain.length ? [folder(name)] : files
    }
    try {
      for (const scan of [await scanTree(lister), await diskScanner(dir)({})]) {
        expect(held(scan)).toBeLessThanOrEqual(MAX_SCAN_CHARS)
        expect(scan.files.size).toBeGreaterThan(0)
        expect(scan.listed.has(bottom)).toBe(false) // cut inside it: not listed whole
        expect(stateIn(scan, `${bottom}/299${name}`)).toBe('unknown')
      }
    } finally {
      execFileSync('rm', ['-rf', path.join(dir, name)]) // rmSync cannot name paths this long
    }
  })
})

describe("this disk's listing", () => {
  it('lists files with sizes, never through a link, and stops at its bound with the open folders unknown', async () => {
    write('a/one.txt', '1')
    write('a/b/two.txt', '22')
    write('z.txt', '333')
    const outside = mkdtempSync(path.join(os.tmpdir(), 'clockwork-poll-out-'))
    writeFileSync(path.join(outside, 'host.txt'), 'x')
    symlinkSync(outside, path.join(dir, 'link'))
    try {
      const whole = await diskScanner(dir)({})
      expect([...whole.files.keys()].sort()).toEqual(['a/b/two.txt', 'a/one.txt', 'link', 'z.txt'])
      expect(whole.files.get('a/b/two.txt')?.size).toBe(2)
      expect([...whole.listed].sort()).toEqual(['', 'a', 'a/b'])
      const bounded = await diskScanner(dir)({ maxEntries: 2 })
      expect(bounded.listed.has('')).toBe(false) // stopped inside it: not listed whole
    } finally {
      rmSync(outside, { recursive: true, force: true })
    }
  })
})
