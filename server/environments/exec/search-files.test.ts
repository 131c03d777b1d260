/**
 * search_files: ripgrep in the environment's command view, over folders made as an environment's
 * are (the sandbox uid's, in a folder it may pass through), against what a command could plant.
 */
import { execFile, execFileSync } from 'node:child_process'
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile as fsWriteFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_SEARCH_CHARS, MAX_SEARCH_FILE_BYTES } from '../files/files-list.ts'
import { type FileContext, writeFile } from '../files/files.ts'
import { prepareFolder } from './identity.ts'
import { searchFiles } from './search-files.ts'
import { ripgrepInView, SEARCH_ENV } from './search-view.ts'

let base: string
let root: string
let ctx: FileContext
beforeEach(async () => {
  // As an environment's folder is made: search_files reads it as the user commands run as.
  base = await mkdtemp(join(tmpdir(), 'env-search-'))
  await chmod(base, 0o711)
  root = join(base, 'env')
  ctx = { root, owner: await prepareFolder(root) }
})
afterEach(() => rm(base, { recursive: true, force: true }))

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ status: 0, message: 'no error' }),
    (err: { status: number; message: string; field?: string }) => err,
  )

describe('search_files', () => {
  beforeEach(async () => {
    await writeFile(ctx, { path: 'src/a.ts', content: 'const x = 1\n// TODO fix\n' })
    await writeFile(ctx, { path: 'src/b.js', content: 'TODO: js\n' })
    await mkdir(join(root, 'node_modules/pkg'), { recursive: true })
    await fsWriteFile(join(root, 'node_modules/pkg/index.js'), 'TODO in a dependency\n')
    await symlink('/etc', join(root, 'etc'))
  })

  it('prints file:line: text, filtered by glob and path', async () => {
    const all = await searchFiles(ctx, { pattern: 'TODO' })
    expect(all.engine).toBe('ripgrep')
    expect(all.output.split('\n').sort()).toEqual(['src/a.ts:2: // TODO fix', 'src/b.js:1: TODO: js'])
    expect((await searchFiles(ctx, { pattern: 'TODO', glob: '*.ts' })).output).toBe('src/a.ts:2: // TODO fix')
    expect((await searchFiles(ctx, { pattern: 'const', path: 'src' })).output).toBe('src/a.ts:1: const x = 1')
  })

  it('says when nothing matches, and refuses a bad pattern or an escaping path', async () => {
    expect((await searchFiles(ctx, { pattern: 'root:x:0' })).output).toBe('No matches.')
    expect(await failure(searchFiles(ctx, { pattern: '(' }))).toMatchObject({ field: 'pattern' })
    expect(await failure(searchFiles(ctx, { pattern: 'x', path: 'etc' }))).toMatchObject({
      message: /resolves outside/,
    })
  })

  it('prints the matches of a file with Windows line endings like any other', async () => {
    await writeFile(ctx, { path: 'src/win.txt', content: 'one\r\nTODO windows\r\n' })
    expect((await searchFiles(ctx, { pattern: 'windows', path: 'src' })).output).toBe(
      'src/win.txt:2: TODO windows',
    )
    expect((await searchFiles(ctx, { pattern: 'windows', path: 'src/win.txt' })).output).toBe(
      'src/win.txt:2: TODO windows',
    )
  })

  it("names a file whose name holds ':7:' whole, with the line that matched", async () => {
    await writeFile(ctx, { path: 'src/notes:7:x.txt', content: 'one\ntwo TODO\n' })
    expect((await searchFiles(ctx, { pattern: 'two', path: 'src' })).output).toBe(
      'src/notes:7:x.txt:2: two TODO',
    )
  })

  it('searches one file by its path, with the same engine', async () => {
    expect((await searchFiles(ctx, { pattern: 'TO+DO', path: 'src/a.ts' })).output).toBe(
      'src/a.ts:2: // TODO fix',
    )
  })
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
