/**
 * The view's masks, run through real bubblewrap: a server path an operator placed inside a folder
 * the view binds (an install under /usr/local, an env file in /etc/ssl…) is empty inside, while
 * the rest of that folder stays visible.
 */
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { systemMounts } from '../../sandbox/bwrap-args.ts'
import { usableBwrap } from '../../sandbox/host-tools.ts'
import { serverPaths, viewArgs } from './sandbox-view.ts'

const bwrap = await usableBwrap()
let base: string
let system: string
let root: string

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'clockwork-view-'))
  system = join(base, 'usr-local') // stands for a system folder the view binds
  root = join(base, 'env')
  await mkdir(join(system, 'bin'), { recursive: true })
  await mkdir(join(system, 'clockwork', 'build'), { recursive: true })
  await mkdir(root)
  await writeFile(join(system, 'bin', 'tool'), 'a system tool')
  await writeFile(join(system, 'clockwork', 'build', 'server.js'), 'planted-install')
  await writeFile(join(system, 'clockwork.env'), 'planted-env-file')
})
afterAll(() => rm(base, { recursive: true, force: true }))

it.skipIf(!bwrap)('masks server paths inside a bound folder, folders and files alike', async () => {
  const args = viewArgs(
    {
      root,
      tmpBytes: 1024 * 1024,
      hidden: [join(system, 'clockwork'), join(system, 'clockwork.env'), join(base, 'not-bound')],
    },
    [...systemMounts(), '--ro-bind', system, system],
  )
  const script = `cat ${system}/bin/tool; echo; ls -A ${system}/clockwork; cat ${system}/clockwork.env ${system}/clockwork/build/server.js 2>&1; echo done`
  const { stdout } = await promisify(execFile)(bwrap!, [...args, '--', '/bin/sh', '-c', script])
  expect(stdout).toContain('a system tool')
  expect(stdout).not.toContain('planted')
  expect(stdout).toMatch(/done\n$/)
})

it.skipIf(!bwrap)('binds an explicit grant back over a masked folder that holds it', async () => {
  const args = viewArgs(
    {
      root,
      tmpBytes: 1024 * 1024,
      hidden: [join(system, 'clockwork')],
      readOnly: [join(system, 'clockwork', 'build')],
    },
    [...systemMounts(), '--ro-bind', system, system],
  )
  const script = `ls -A ${system}/clockwork; cat ${system}/clockwork/build/server.js`
  const { stdout } = await promisify(execFile)(bwrap!, [...args, '--', '/bin/sh', '-c', script])
  expect(stdout).toBe('build\nplanted-install')
})

it('lists the server paths a deployment configures', () => {
  const paths = serverPaths()
  expect(paths).toContain(process.cwd())
  expect(paths).toContain(tmpdir())
})
