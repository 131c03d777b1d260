import {
  appendFile,
  type FileHandle,
  mkdtemp,
  open,
  rm,
  symlink,
  writeFile as fsWriteFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readAtMost } from './bounded-read.ts'
import { editFile, type FileContext, MAX_READ_BYTES, readFile, writeFile } from './files.ts'
import { listDirectory } from './files-list.ts'
import { measureUsage } from './quota.ts'

let root: string
let ctx: FileContext
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'env-files-'))
  ctx = { root }
})
afterEach(() => rm(root, { recursive: true, force: true }))

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ status: 0, message: 'no error' }),
    (err: { status: number; message: string; field?: string }) => err,
  )

describe('write_file / read_file', () => {
  it('writes a file in new folders and reads it back by lines', async () => {
    expect(await writeFile(ctx, { path: 'src/app.js', content: 'a\nb\nc\n' })).toEqual({
      path: 'src/app.js',
      bytes: 6,
    })
    const all = await readFile(ctx, { path: 'src/app.js' })
    expect(all).toMatchObject({ content: 'a\nb\nc', totalLines: 3, startLine: 1, endLine: 3 })
    expect(all.nextOffset).toBeUndefined()
    const middle = await readFile(ctx, { path: 'src/app.js', offset: 2, limit: 1 })
    expect(middle).toMatchObject({ content: 'b', startLine: 2, endLine: 2, nextOffset: 3 })
  })

  it('replaces the whole content of an existing, longer file', async () => {
    await writeFile(ctx, { path: 'a.txt', content: 'a long first version' })
    await writeFile(ctx, { path: 'a.txt', content: 'short' })
    expect((await readFile(ctx, { path: 'a.txt' })).content).toBe('short')
  })

  it('answers clearly for a missing file, a folder, and an offset past the end', async () => {
    await writeFile(ctx, { path: 'dir/x.txt', content: 'x' })
    expect(await failure(readFile(ctx, { path: 'nope.txt' }))).toMatchObject({ status: 404 })
    expect(await failure(readFile(ctx, { path: 'dir' }))).toMatchObject({
      status: 400,
      message: /is a folder/,
    })
    expect(await failure(readFile(ctx, { path: 'dir/x.txt', offset: 9 }))).toMatchObject({ field: 'offset' })
  })

  it('says a binary file is binary instead of dumping it', async () => {
    await fsWriteFile(join(root, 'b.bin'), Buffer.from([1, 0, 2, 3]))
    expect(await readFile(ctx, { path: 'b.bin' })).toMatchObject({
      binary: true,
      content: '(binary file, 4 bytes)',
    })
  })

  it('redacts what it reads back when asked to', async () => {
    await writeFile(ctx, { path: 'leak.txt', content: 'token=s3cr3t-value' })
    const redacted = await readFile(
      { ...ctx, redact: (t) => t.replaceAll('s3cr3t-value', '••••') },
      { path: 'leak.txt' },
    )
    expect(redacted.content).toBe('token=••••')
  })

  it('refuses writes once the environment is over its disk quota', async () => {
    const limited = { ...ctx, quotaBytes: 64 * 1024 }
    await writeFile(limited, { path: 'small.txt', content: 'ok' })
    await fsWriteFile(join(root, 'big.bin'), Buffer.alloc(80 * 1024, 1)) // as a command would
    await measureUsage(root) // what exec does after each command
    const refused = await failure(writeFile(limited, { path: 'more.txt', content: 'x' }))
    expect(refused).toMatchObject({ status: 507, message: /over its disk quota/ })
  })

  it('refuses a file that a command grows past the limit after its size was checked', async () => {
    await fsWriteFile(join(root, 'log.txt'), 'small\n') // 6 bytes when opened and checked
    // A command appending between the size check and the read (a tight `yes >> log.txt`).
    const afterSize = () => appendFile(join(root, 'log.txt'), Buffer.alloc(MAX_READ_BYTES, 'y'))
    expect(await failure(readFile(ctx, { path: 'log.txt' }, { afterSize }))).toMatchObject({
      status: 400,
      field: 'path',
      message: `path: "log.txt" is more than ${MAX_READ_BYTES} bytes; the most read_file loads is ${MAX_READ_BYTES}`,
    })
  })
})

describe('readAtMost', () => {
  it('stops one byte past the limit of a source that never ends', async () => {
    const zero = await open('/dev/zero', 'r')
    try {
      let bytesRead = 0
      const counted = {
        read: async (buffer: Buffer, offset: number, length: number, position: number) => {
          const got = await zero.read(buffer, offset, length, position)
          bytesRead += got.bytesRead
          return got
        },
      } as Pick<FileHandle, 'read'>
      expect(await readAtMost(counted, 300_000)).toBeUndefined()
      expect(bytesRead).toBe(300_001)
    } finally {
      await zero.close()
    }
  })

  it('reads a file of exactly the limit, and an empty one', async () => {
    await fsWriteFile(join(root, 'full.txt'), 'x'.repeat(200_000))
    await fsWriteFile(join(root, 'empty.txt'), '')
    for (const [name, length] of [
      ['full.txt', 200_000],
      ['empty.txt', 0],
    ] as const) {
      const handle = await open(join(root, name), 'r')
      try {
        expect((await readAtMost(handle, 200_000))?.length).toBe(length)
      } finally {
        await handle.close()
      }
    }
  })
})

describe('edit_file', () => {
  it('replaces the one exact match and says on which line', async () => {
    await writeFile(ctx, { path: 'a.js', content: 'const a = 1\nconst b = 2\n' })
    expect(await editFile(ctx, { path: 'a.js', old: 'b = 2', new: 'b = 3' })).toMatchObject({ line: 2 })
    expect((await readFile(ctx, { path: 'a.js' })).content).toBe('const a = 1\nconst b = 3')
  })

  it('fails clearly on no match and on several matches, changing nothing', async () => {
    await writeFile(ctx, { path: 'a.js', content: 'x = 1\nx = 1\n' })
    expect(await failure(editFile(ctx, { path: 'a.js', old: 'y = 1', new: '' }))).toMatchObject({
      field: 'old',
      message: /not found/,
    })
    expect(await failure(editFile(ctx, { path: 'a.js', old: 'x = 1', new: 'x = 2' }))).toMatchObject({
      field: 'old',
      message: /occurs 2 times/,
    })
    expect((await readFile(ctx, { path: 'a.js' })).content).toBe('x = 1\nx = 1')
  })
})

describe('list_directory', () => {
  it('lists entries with sizes, recursively on request, without following links', async () => {
    await writeFile(ctx, { path: 'src/a.js', content: '12345' })
    await writeFile(ctx, { path: 'README.md', content: 'hi' })
    await symlink('/etc', join(root, 'etc'))
    const top = await listDirectory(ctx, {})
    expect(top.entries).toEqual([
      { path: 'etc', type: 'symlink', size: 0 },
      { path: 'README.md', type: 'file', size: 2 },
      { path: 'src', type: 'folder', size: 0 },
    ])
    const deep = await listDirectory(ctx, { recursive: true })
    expect(deep.entries.map((e) => e.path)).toEqual(['etc', 'README.md', 'src', 'src/a.js'])
    expect((await listDirectory(ctx, { path: 'src' })).entries).toEqual([
      { path: 'src/a.js', type: 'file', size: 5 },
    ])
    expect(await failure(listDirectory(ctx, { path: 'etc' }))).toMatchObject({ message: /resolves outside/ })
  })
})
