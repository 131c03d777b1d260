import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkRelativePath, openForRead, openForWrite } from './paths.ts'

let base: string
let root: string
let outside: string

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'env-paths-'))
  root = join(base, 'root')
  outside = join(base, 'outside')
  await mkdir(join(root, 'sub'), { recursive: true })
  await mkdir(outside)
  await writeFile(join(root, 'sub', 'data.txt'), 'inside')
  await writeFile(join(outside, 'data.txt'), 'OUTSIDE SECRET')
})
afterEach(() => rm(base, { recursive: true, force: true }))

const readText = async (rel: string, hooks?: { afterCheck?: () => Promise<void> }) => {
  const opened = await openForRead(root, rel, { hooks })
  try {
    return (await opened.handle.readFile()).toString()
  } finally {
    await opened.handle.close()
  }
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (err: Error) => err.message,
  )

describe('checkRelativePath', () => {
  it.each([
    ['../x', /must not contain \.\./],
    ['sub/../../x', /must not contain \.\./],
    ['/etc/passwd', /must be relative/],
    ['~/x', /must be relative/],
    ['a\0b', /NUL/],
    ['', /is required/],
  ])('refuses %j', (input, message) => {
    expect(() => checkRelativePath(input)).toThrow(message)
  })

  it('normalises harmless spellings', () => {
    expect(checkRelativePath('./src//a.js')).toBe('src/a.js')
    expect(checkRelativePath('', 'path', true)).toBe('')
  })
})

describe('symlinks', () => {
  it('refuses a symlinked folder that leads to /etc', async () => {
    await symlink('/etc', join(root, 'etc'))
    expect(await rejection(readText('etc/passwd'))).toMatch(/resolves outside the environment/)
    expect(await rejection(openForWrite(root, 'etc/clockwork-test'))).toMatch(/resolves outside/)
    expect(existsSync('/etc/clockwork-test')).toBe(false)
  })

  it('refuses a symlinked file that leads outside, for reading and writing', async () => {
    await symlink(join(outside, 'data.txt'), join(root, 'link.txt'))
    expect(await rejection(readText('link.txt'))).toMatch(/resolves outside/)
    expect(await rejection(openForWrite(root, 'link.txt'))).toMatch(/resolves outside/)
    expect(await readFile(join(outside, 'data.txt'), 'utf8')).toBe('OUTSIDE SECRET')
  })

  it('follows a symlink that stays inside', async () => {
    await symlink('sub/data.txt', join(root, 'alias.txt'))
    expect(await readText('alias.txt')).toBe('inside')
  })
})

describe('a path swapped between check and use', () => {
  const swapSubFor = (target: string) => async () => {
    await rename(join(root, 'sub'), join(root, 'sub.old'))
    await symlink(target, join(root, 'sub'))
  }

  it('reads normally when nothing is swapped (control)', async () => {
    expect(await readText('sub/data.txt')).toBe('inside')
  })

  it('refuses a read when a folder became a symlink to another folder', async () => {
    const message = await rejection(readText('sub/data.txt', { afterCheck: swapSubFor(outside) }))
    expect(message).toMatch(/resolves outside/)
  })

  it('refuses a read when a folder became a symlink to /etc', async () => {
    await writeFile(join(root, 'sub', 'hostname'), 'planted')
    const message = await rejection(readText('sub/hostname', { afterCheck: swapSubFor('/etc') }))
    expect(message).toMatch(/resolves outside/)
  })

  it('refuses a read when the file itself became a symlink', async () => {
    const swap = async () => {
      await rm(join(root, 'sub', 'data.txt'))
      await symlink('/etc/passwd', join(root, 'sub', 'data.txt'))
    }
    expect(await rejection(readText('sub/data.txt', { afterCheck: swap }))).toMatch(/resolves outside/)
  })

  it('refuses a write into a swapped folder, leaving the outside file untouched', async () => {
    const message = await rejection(
      openForWrite(root, 'sub/data.txt', { hooks: { afterCheck: swapSubFor(outside) } }),
    )
    expect(message).toMatch(/resolves outside/)
    expect(await readFile(join(outside, 'data.txt'), 'utf8')).toBe('OUTSIDE SECRET')
  })

  it('refuses creating a file through a swapped folder, and leaves nothing behind', async () => {
    const message = await rejection(
      openForWrite(root, 'sub/new.txt', { hooks: { afterCheck: swapSubFor(outside) } }),
    )
    expect(message).toMatch(/resolves outside/)
    expect(existsSync(join(outside, 'new.txt'))).toBe(false)
  })
})
