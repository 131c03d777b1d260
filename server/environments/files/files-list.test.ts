/**
 * How much of a huge folder list_directory reads. A command can make a folder of millions of
 * names; the listing needs only the first MAX_ENTRIES + 1, so it must stop reading there rather
 * than load every name first. The names the server reads are counted through the two ways
 * `node:fs/promises` hands them out (readdir's array, opendir's entries).
 */
import { execFileSync } from 'node:child_process'
import type * as FsPromises from 'node:fs/promises'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

const read = vi.hoisted(() => ({ names: 0 }))

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>()
  const readdir = (async (...args: Parameters<typeof fs.readdir>) => {
    const names = await fs.readdir(...args)
    read.names += names.length
    return names
  }) as typeof fs.readdir
  const opendir = async (...args: Parameters<typeof fs.opendir>) => {
    const dir = await fs.opendir(...args)
    const entries = dir[Symbol.asyncIterator].bind(dir)
    dir[Symbol.asyncIterator] = async function* () {
      for await (const entry of entries()) {
        read.names++
        yield entry
      }
    }
    return dir
  }
  return { ...fs, default: { ...fs, readdir, opendir }, readdir, opendir }
})

const { listDirectory, MAX_ENTRIES } = await import('./files-list.ts')

const MANY = 50_000
let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'env-list-'))
  await mkdir(join(root, 'many'))
  // As a command would make it: 50,000 empty files in one folder.
  execFileSync('sh', ['-c', `seq 1 ${MANY} | xargs touch`], { cwd: join(root, 'many') })
}, 60_000)
afterAll(() => rm(root, { recursive: true, force: true }))

describe('list_directory of a folder of 50,000 entries', () => {
  it.each([false, true])(
    'lists the first entries, says it is truncated, and reads no further (recursive: %s)',
    async (recursive) => {
      read.names = 0
      const listed = await listDirectory({ root }, { path: 'many', recursive })
      expect(listed.entries).toHaveLength(MAX_ENTRIES)
      expect(listed.truncated).toBe(true)
      // One past the cap says "truncated"; the one after is where the loop sees it is done.
      expect(read.names).toBeLessThanOrEqual(MAX_ENTRIES + 2)
    },
  )
})
