/**
 * What a command can see: the bubblewrap profile every local command runs in (and search_files's
 * ripgrep, search-view.ts), built from explicit binds rather than the host's `/` with holes
 * punched in it (a list of holes always misses one: a fresh folder in the temp dir, the install
 * folder, a database living outside `.data`).
 *
 * Inside: the environment's folder (read-write; read-only for a search), the system tool folders read-only (`/usr`, `/bin`,
 * `/sbin`, `/lib*`), a handful of `/etc` files tools need (no `/etc/environment`, `npmrc`, shadow
 * files or anything else an operator may keep there), a private size-capped `/tmp`, fresh `/proc`
 * and `/dev`, and whatever the network layer asks for (the command's proxy gate and
 * sandbox-runtime's own helper binaries). Nothing else exists; `/` itself is read-only. The server's
 * own paths (install folder, data folders, env file, ENVIRONMENT_LOCAL_ROOT, ...) are masked even
 * when an operator put them inside one of the bound system folders.
 */
import { existsSync, realpathSync, statSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { env as appEnv } from '../../env.ts'
import { systemMounts } from '../../sandbox/bwrap-args.ts'
import { isInside } from '../files/paths.ts'

/** The /etc entries tools need (name lookup, TLS roots, dynamic linking, Debian's alternatives). */
/** The command's own /tmp inside the view: a private, size-capped tmpfs, never the host's. */
export const VIEW_TMP = '/tmp'

export const ETC_ENTRIES = [
  'passwd',
  'group',
  'hosts',
  'resolv.conf',
  'nsswitch.conf',
  'host.conf',
  'gai.conf',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'alternatives',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'localtime',
  'timezone',
  'os-release',
  'debian_version',
  'mime.types',
  'protocols',
  'services',
  'networks',
  'inputrc',
  'profile',
  'bash.bashrc',
  'shells',
  'terminfo',
  'magic',
  'magic.mime',
  'locale.alias',
  'ssh/ssh_config',
  'ssh/ssh_config.d',
].map((entry) => `/etc/${entry}`)

/**
 * The folder this code was installed in: the nearest one above this module with a package.json
 * (the repository from source, the app folder holding `build/` from the bundle).
 */
export function installDir(): string {
  const start = dirname(fileURLToPath(import.meta.url))
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dir === dirname(dir)) return start
  }
}

/**
 * The server's own paths: never visible to a command, wherever an operator put them (including
 * inside a system folder the sandbox binds).
 */
export function serverPaths(): string[] {
  const env = appEnv()
  const paths = [
    installDir(),
    process.cwd(),
    resolve('.data'),
    resolve(env.ENVIRONMENTS_DIR),
    resolve(env.ENVIRONMENT_SNAPSHOTS_DIR),
    resolve(env.PGLITE_DIR),
    homedir(),
    tmpdir(),
  ]
  if (env.ENV_FILE !== 'off') paths.push(resolve(env.ENV_FILE))
  if (env.ENVIRONMENT_LOCAL_ROOT) paths.push(resolve(env.ENVIRONMENT_LOCAL_ROOT))
  return paths
}

export type ViewPlan = {
  /** The environment's folder (absolute): bound read-write at the same path, the working directory. */
  root: string
  /** Size of the private /tmp, in bytes (a tmpfs: memory, charged to the environment's box). */
  tmpBytes: number
  /** Host paths bound read-only at the same path (the network layer's helpers, a harness's sockets). */
  readOnly?: string[]
  /**
   * Unix sockets bound read-only at another path: a command's own proxy gate where sandbox-runtime's
   * line looks for its proxy (sandbox-runtime.ts).
   */
  sockets?: { source: string; target: string }[]
  /** Empty folders to create (where the network layer mounts its own masks). */
  dirs?: string[]
  /** Paths to keep hidden even inside a bound folder; the server's own by default. */
  hidden?: string[]
  /** Bind the environment's folder read-only (a search, which only reads). */
  readOnlyRoot?: boolean
  /** The working directory inside the view (resolved there, so never outside it); `root` by default. */
  cwd?: string
}

const real = (path: string) => {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/** The bwrap arguments (before `--`) for one command's view of the file system. */
export function viewArgs(plan: ViewPlan, system = systemMounts()): string[] {
  const etc = ETC_ENTRIES.filter((path) => existsSync(path)).flatMap((path) => ['--ro-bind', path, path])
  const extra = [
    ...(plan.readOnly ?? []).map((path) => ({ source: path, target: path })),
    ...(plan.sockets ?? []),
  ].flatMap(({ source, target }) => ['--ro-bind', source, target])
  const bound = [...system, ...etc].filter((_, i, all) => all[i - 1] === '--ro-bind')
  return [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--hostname',
    'sandbox',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(plan.tmpBytes),
    '--tmpfs',
    VIEW_TMP,
    '--dir',
    '/var',
    '--symlink',
    VIEW_TMP,
    '/var/tmp',
    ...system,
    '--dir',
    '/etc',
    ...etc,
    // Masks before the explicit grants: a grant inside a masked folder (the runtime's helpers in an
    // install under /usr/local) is bound back over the mask.
    ...masks(plan.hidden ?? serverPaths(), bound),
    ...extra,
    ...(plan.dirs ?? []).flatMap((dir) => ['--dir', dir]),
    plan.readOnlyRoot ? '--ro-bind' : '--bind',
    plan.root,
    plan.root,
    '--chdir',
    plan.cwd ?? plan.root,
    '--remount-ro',
    '/',
  ]
}

/** An empty folder (or /dev/null for a file) over each hidden path that a bound folder contains. */
function masks(hidden: string[], bound: string[]): string[] {
  const sources = bound.map(real)
  const out: string[] = []
  for (const path of new Set(hidden.map(real))) {
    if (!sources.some((source) => isInside(source, path) || source === path)) continue
    let isDir: boolean
    try {
      isDir = statSync(path).isDirectory()
    } catch {
      continue // not there: nothing to see
    }
    out.push(...(isDir ? ['--tmpfs', path] : ['--ro-bind', '/dev/null', path]))
  }
  return out
}
