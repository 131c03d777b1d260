import { execFileSync, spawn } from 'node:child_process'
import { constants, existsSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, open, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { prepareFolder } from './identity.ts'
import { emptyFolder, fileInside, folderInside, readInside, removeInside, writeInside } from './inside.ts'

let base: string
let root: string
let outside: string

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'env-inside-'))
  await chmod(base, 0o711)
  root = join(base, 'envs', 'e1')
  await prepareFolder(root)
  outside = join(base, 'outside')
  await mkdir(outside)
  await writeFile(join(outside, 'secret'), 'HOST')
  await writeFile(join(root, 'mine.txt'), 'inside')
})
afterEach(() => rm(base, { recursive: true, force: true }))

describe('the server’s own reads and writes inside an environment', () => {
  it('read regular files inside only: not a link out, a FIFO, or one too large', async () => {
    await symlink(join(outside, 'secret'), join(root, 'link'))
    execFileSync('mkfifo', [join(root, 'fifo')])
    expect(await readInside(root, 'mine.txt', 100)).toBe('inside')
    expect(await readInside(root, 'mine.txt', 3)).toBeUndefined()
    expect(await readInside(root, 'link', 100)).toBeUndefined()
    expect(await readInside(root, 'fifo', 100)).toBeUndefined()
    expect(await fileInside(root, 'link')).toBe(false)
    expect(await fileInside(root, 'mine.txt')).toBe(true)
  })

  it('refuse to write through a link, and make folders only inside', async () => {
    await symlink(join(outside, 'secret'), join(root, 'marker'))
    await expect(writeInside(root, 'marker', 'x')).rejects.toThrow(/resolves outside/)
    await symlink(outside, join(root, 'state'))
    await expect(folderInside(root, 'state')).rejects.toThrow(/resolves outside/)
    expect(await readFile(join(outside, 'secret'), 'utf8')).toBe('HOST')
  })

  it('refuse to write into a FIFO a command left, at once: never wait for a reader', async () => {
    // A command replaces AGENTS.md (rewritten on every use) with a FIFO. Opening it to write
    // would wait for a reader in a libuv thread; four such waits hold every thread, and with
    // them every file and DNS call of the whole server.
    const names = ['AGENTS.md', 'b', 'c', 'd', 'e']
    for (const name of names) execFileSync('mkfifo', [join(root, name)])
    const writes = names.map((name) =>
      writeInside(root, name, 'x').then(
        () => 'written',
        (err: Error) => err.message,
      ),
    )
    // Without the fix the writes would wait here for ever: a reader on each FIFO, opened only
    // once the writes have had their chance, lets them finish (as "written") so the test fails
    // rather than hangs.
    const rescue = setTimeout(() => {
      for (const name of names) spawn('cat', [join(root, name)], { stdio: 'ignore' }).unref()
    }, 5_000)
    const results = await Promise.all(writes)
    clearTimeout(rescue)
    for (const r of results) expect(r).toMatch(/not a regular file/)
  })

  it('refuse to write into a FIFO that a command is reading', async () => {
    const fifo = join(root, 'AGENTS.md')
    execFileSync('mkfifo', [fifo])
    // The command's end of the FIFO, held open for reading (without blocking, as no writer is there yet).
    const reader = await open(fifo, constants.O_RDONLY | constants.O_NONBLOCK)
    try {
      await expect(writeInside(root, 'AGENTS.md', 'instructions')).rejects.toThrow(/not a regular file/)
      const { bytesRead } = await reader.read(Buffer.alloc(64), 0, 64, null)
      expect(bytesRead).toBe(0)
    } finally {
      await reader.close()
    }
  })

  it('remove the link itself, never what it points to, even through a swapped parent', async () => {
    await mkdir(join(root, 'dir'))
    await writeFile(join(outside, 'x'), 'keep')
    await rm(join(root, 'dir'), { recursive: true })
    await symlink(outside, join(root, 'dir')) // a command swapped the folder for a link
    await removeInside(root, 'dir/x')
    expect(existsSync(join(outside, 'x'))).toBe(true)
    await symlink(join(outside, 'secret'), join(root, 'l2'))
    await removeInside(root, 'l2')
    expect(existsSync(join(root, 'l2'))).toBe(false)
    expect(existsSync(join(outside, 'secret'))).toBe(true)
  })

  it('remove an empty folder, never one with something in it or a link to an empty one', async () => {
    await mkdir(join(root, 'skills', 'gone'), { recursive: true })
    await mkdir(join(root, 'skills', 'kept'))
    await writeFile(join(root, 'skills', 'kept', 'SKILL.md'), 'text')
    await mkdir(join(outside, 'empty'))
    await symlink(join(outside, 'empty'), join(root, 'skills', 'link'))
    for (const name of ['gone', 'kept', 'link', 'missing'])
      await removeInside(root, `skills/${name}`, { folder: true })
    expect(existsSync(join(root, 'skills', 'gone'))).toBe(false)
    expect(existsSync(join(root, 'skills', 'kept', 'SKILL.md'))).toBe(true)
    expect(existsSync(join(outside, 'empty'))).toBe(true)
  })

  it('empty the folder without following a link out of it', async () => {
    await symlink(outside, join(root, 'out'))
    await mkdir(join(root, 'deep', 'er'), { recursive: true })
    // As a command would have made them: owned by the sandbox uid, like the folder.
    const owner = await prepareFolder(root)
    execFileSync('chown', ['-R', '-h', `${owner.uid}:${owner.gid}`, root])
    await emptyFolder(root)
    expect(execFileSync('ls', ['-A', root], { encoding: 'utf8' })).toBe('')
    expect(existsSync(join(outside, 'secret'))).toBe(true)
  })
})
