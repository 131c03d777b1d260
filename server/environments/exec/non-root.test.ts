/**
 * Issue 25 item 7: a server running as an unprivileged user (the Dockerfile's `USER node`) runs
 * commands as its own uid, so a folder private to that uid is private to nobody its commands
 * reach. Its env file, snapshots and PGlite data live outside `.data` here, mode 0700/0600, as a
 * careful operator would set them; a member's command tries to read them.
 */
import { execFile } from 'node:child_process'
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findExecutable } from '../../sandbox/host-tools.ts'

const SERVER_UID = 65534 // the unprivileged user the server runs as in this test
const setpriv = findExecutable('setpriv')
const run = promisify(execFile)

let base: string
let paths: { envFile: string; snapshots: string; pglite: string; root: string }

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'clockwork-non-root-'))
  await chmod(base, 0o755)
  const own = join(base, 'server') // the server user's own folder: nobody else may enter it
  paths = {
    envFile: join(own, 'clockwork.env'),
    snapshots: join(own, 'snapshots'),
    pglite: join(own, 'pglite'),
    root: join(base, 'environments', 'e1'),
  }
  await mkdir(paths.snapshots, { recursive: true })
  await mkdir(paths.pglite, { recursive: true })
  await mkdir(paths.root, { recursive: true })
  await writeFile(paths.envFile, 'BETTER_AUTH_SECRET=planted-non-root-env-file\n', { mode: 0o600 })
  await writeFile(join(paths.snapshots, 'env_a.tar.gz'), 'planted-non-root-snapshot', { mode: 0o600 })
  await writeFile(join(paths.pglite, 'PG_VERSION'), 'planted-non-root-pglite', { mode: 0o600 })
  for (const dir of [own, paths.snapshots, paths.pglite, join(base, 'environments'), paths.root])
    await chown(dir, SERVER_UID, SERVER_UID)
  for (const file of [paths.envFile, join(paths.snapshots, 'env_a.tar.gz'), join(paths.pglite, 'PG_VERSION')])
    await chown(file, SERVER_UID, SERVER_UID)
  await chmod(own, 0o700)
})
afterAll(() => rm(base, { recursive: true, force: true }))

describe.runIf(process.getuid?.() === 0 && setpriv)('a server running as an unprivileged user', () => {
  it("runs a member's command that cannot read the server's env file, snapshots or database", async () => {
    const command = [
      `cat ${paths.envFile}`,
      `ls ${paths.snapshots}`,
      `cat ${paths.snapshots}/*`,
      `cat ${paths.pglite}/PG_VERSION`,
      'id -u',
    ].join('; ')
    const { stdout } = await run(
      setpriv!,
      [
        `--reuid=${SERVER_UID}`,
        `--regid=${SERVER_UID}`,
        '--clear-groups',
        '--',
        process.execPath,
        '--import',
        'tsx',
        'tests/support/non-root-command.ts',
        paths.root,
        command,
      ],
      {
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: join(base, 'home'),
          ENV_FILE: paths.envFile,
          ENVIRONMENT_SNAPSHOTS_DIR: paths.snapshots,
          PGLITE_DIR: paths.pglite,
          ENVIRONMENTS_DIR: join(base, 'environments'),
        },
        timeout: 120_000,
      },
    )
    // The last line: the server's own log lines (a non-root server warns it has no cgroup boxes) come first.
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      stdout: string
      stderr: string
      exitCode: number
    }
    const seen = result.stdout + result.stderr
    expect(seen).not.toContain('planted-non-root')
    expect(seen).not.toContain('env_a.tar.gz')
    expect(stdout).toMatch(/no cgroup boxes/)
    // The command ran, as the server's own uid (it has no other to give it).
    expect(result.stdout).toMatch(new RegExp(`^${SERVER_UID}$`, 'm'))
  }, 150_000)
})
