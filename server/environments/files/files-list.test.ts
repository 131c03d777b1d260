/**
 * How much of a huge folder list_directory reads. A command can make a folder of millions of
 * names; the listing needs only the first MAX_ENTRIES + 1, so it must stop reading there rather
 * than load every name first. The names the server reads are counted through the two ways
 * `node:fs/promises` hands them out (readdir's array, opendir's entries).
 */
import { execFile, execFileSync } from 'node:child_process'
import type * as FsPromises from 'node:fs/promises'
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises'
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

const { prepareFolder } = await import('../exec/identity.ts')
const { ripgrepInView, SEARCH_ENV } = await import('./search-view.ts')
const { listDirectory, searchFiles, MAX_ENTRIES, MAX_SEARCH_CHARS, MAX_SEARCH_FILE_BYTES } =
  await import('./files-list.ts')

const MANY = 50_000
let base: string
let root: string
beforeAll(async () => {
  // As an environment's folder is made: search_files reads it as the user commands run as.
  base = await mkdtemp(join(tmpdir(), 'env-list-'))
  await chmod(base, 0o711)
  root = join(base, 'env')
  await prepareFolder(root)
  await mkdir(join(root, 'many'))
  // As a command would make it: 50,000 empty files in one folder.
  execFileSync('sh', ['-c', `seq 1 ${MANY} | xargs touch`], { cwd: join(root, 'many') })
}, 60_000)
afterAll(() => rm(base, { recursive: true, force: true }))

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

describe('search_files against what a command planted', () => {
  it('answers a bounded output for matches in a file 15 folders of 250-character names deep', async () => {
    // rg cuts a line at 400 columns, never its file's path: 3.8 KB each, 750 KB for 200 matches.
    const name = 'a'.repeat(250)
    execFileSync('sh', ['-c', `mkdir -p "long/$(printf "${name}/%.0s" $(seq 15))"`], { cwd: root })
    execFileSync(
      'sh',
      ['-c', `cd "long/$(printf "${name}/%.0s" $(seq 15))" && seq 1 200 | sed s/^/hit/ > f`],
      {
        cwd: root,
      },
    )
    try {
      const found = await searchFiles({ root }, { pattern: 'hit', path: 'long' })
      expect(found.truncated).toBe(true)
      expect(found.output.length).toBeLessThan(MAX_SEARCH_CHARS + 200)
      expect(found.matches).toBeGreaterThan(0)
    } finally {
      execFileSync('rm', ['-rf', 'long'], { cwd: root })
    }
  })

  it.each([
    ['a pattern that is a flag', '--files'],
    ['a pattern that is a flag with a value', '--pre=/bin/sh'],
  ])('treats %s as text to find', async (_what, pattern) => {
    execFileSync('sh', ['-c', `mkdir -p flags && printf 'x ${pattern} y\\n' > flags/f`], { cwd: root })
    const found = await searchFiles({ root }, { pattern, path: 'flags' })
    expect(found.output).toBe(`flags/f:1: x ${pattern} y`)
  })

  it('never follows a link to a host file, and skips a FIFO, within the time limit', async () => {
    execFileSync(
      'sh',
      ['-c', 'mkdir -p planted && cd planted && ln -s /etc/passwd p && ln -s /etc etc && mkfifo fifo'],
      {
        cwd: root,
      },
    )
    const found = await searchFiles({ root }, { pattern: 'root:', path: 'planted' })
    expect(found.output).toBe('No matches.')
    await expect(searchFiles({ root }, { pattern: 'x', path: 'planted/p' })).rejects.toMatchObject({
      status: 400,
    })
    // Named, a FIFO would wait for a writer until the time limit.
    await expect(searchFiles({ root }, { pattern: 'x', path: 'planted/fifo' })).rejects.toMatchObject({
      status: 400,
      message: 'path: "planted/fifo" is not a regular file',
    })
  })

  it("runs ripgrep in the command view: a folder it reaches through a link is the view's", async () => {
    // What a swap makes ripgrep walk into: another environment (its folder, like this one, belongs
    // to the sandbox uid, so that uid alone would read it) and the host's /etc.
    await prepareFolder(join(base, 'sibling'))
    execFileSync('sh', ['-c', `echo SIBLING-SECRET > ${join(base, 'sibling', 'notes.txt')}`])
    execFileSync('sh', ['-c', 'mkdir -p via && ln -sfn ../../sibling via/sibling && ln -sfn /etc via/etc'], {
      cwd: root,
    })
    const rg = async (link: string, pattern: string) => {
      const argv = await ripgrepInView(root, join(root, 'via', link), ['--no-messages', '-e', pattern, '.'])
      return new Promise<string>((resolve) =>
        execFile(argv[0]!, argv.slice(1), { env: SEARCH_ENV }, (_err, stdout, stderr) =>
          resolve(stdout + stderr),
        ),
      )
    }
    expect(await rg('sibling', 'SIBLING-SECRET')).not.toContain('notes.txt')
    const etc = await rg('etc', '^root:')
    expect(etc).toMatch(/passwd:root:/) // what a command reads there too
    expect(etc).not.toMatch(/shadow/)
  })

  it('does not read a file over the read limit: one long line cost twice its size per search', async () => {
    // What `head -c 11M /dev/zero | tr '\0' a; echo needle` makes: one line past the limit.
    execFileSync(
      'sh',
      ['-c', `mkdir -p long && head -c ${MAX_SEARCH_FILE_BYTES + 1} /dev/zero | tr '\\0' a > long/line`],
      {
        cwd: root,
      },
    )
    execFileSync('sh', ['-c', 'echo needle >> long/line && echo needle > long/small'], { cwd: root })
    const found = await searchFiles({ root }, { pattern: 'needle', path: 'long' })
    expect(found).toMatchObject({ output: 'long/small:1: needle', matches: 1 })
    await expect(searchFiles({ root }, { pattern: 'needle', path: 'long/line' })).rejects.toMatchObject({
      status: 400,
      field: 'path',
      message: `path: "long/line" is more than ${MAX_SEARCH_FILE_BYTES} bytes; the most search_files reads is ${MAX_SEARCH_FILE_BYTES}`,
    })
  })

  it('runs a catastrophic backtracking pattern in linear time, in its own process', async () => {
    execFileSync(
      'sh',
      ['-c', `mkdir -p redos && printf '%s!\\n' "$(printf 'a%.0s' $(seq 5000))" > redos/f`],
      { cwd: root },
    )
    const found = await searchFiles({ root }, { pattern: '^(a+)+$', path: 'redos' })
    expect(found).toMatchObject({ output: 'No matches.', truncated: false })
  })
})
