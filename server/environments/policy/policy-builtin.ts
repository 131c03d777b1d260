/**
 * The built-in denylist: commands no policy can allow, checked on every simple command whatever the
 * settings say. The sandbox would contain most of them anyway; refusing them up front keeps the
 * transcript honest about what the agent tried and stops the obvious ones before they cost a run.
 */
import { type ArgJson, type Json, type WordJson, wordValue } from './policy-words.ts'

export type BuiltinHit = { decision: 'ask' | 'deny'; rule: string; reason: string }

const PRIVILEGE = new Set(['sudo', 'su', 'doas', 'pkexec', 'runuser', 'nsenter', 'sudoedit'])
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff'])
const RECURSIVE_OWNERSHIP = new Set(['chmod', 'chown', 'chgrp'])
const HARMLESS_DEVICES = /^\/dev\/(null|zero|full|u?random|stdout|stderr|tty|fd\/\d+)$/
const BLOCK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|dm-|md|loop|mem$|kmem$|port$)/
const WRITE_REDIRECTS = new Set(['>', '>>', '<>', '>|', '&>', '&>>'])

const deny = (rule: string, reason: string): BuiltinHit => ({
  decision: 'deny',
  rule: `builtin:${rule}`,
  reason,
})

/**
 * `arg` without its trailing `/` and `/.` steps, read from the end. The regex it replaces,
 * `/(\/\.?)+$/`, tried every start in a run of slashes (65,000 of them: 10 s).
 */
function withoutTrailingSlashes(arg: string): string {
  let end = arg.length
  for (;;) {
    if (arg[end - 1] === '/') end -= 1
    else if (arg[end - 1] === '.' && arg[end - 2] === '/') end -= 2
    else return arg.slice(0, end)
  }
}

/** `/`, `/*`, `/usr`, `~`, `~/`, `~/*`, `$HOME`, `${HOME}/*`: the whole machine or a whole home. */
export function isRootish(arg: string): boolean {
  const trimmed = withoutTrailingSlashes(arg).replace(/\/\*$/, '')
  if (trimmed === '' || trimmed === '/*' || trimmed === '/.*') return true
  if (/^\/[^/]+$/.test(trimmed)) return true // a top-level directory: /etc, /usr, /home
  return /^(~[A-Za-z0-9_-]*|\$HOME|\$\{HOME\})(\/\*?)?$/.test(trimmed)
}

function hasRecursiveFlag(args: string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false
    if (arg === '--recursive') return true
    if (/^-[A-Za-z]*[rR]/.test(arg) && !arg.startsWith('--')) return true
  }
  return false
}

/** Operands (non-options) of a command, honouring `--`. */
function operands(args: string[]): string[] {
  const end = args.indexOf('--')
  const before = (end < 0 ? args : args.slice(0, end)).filter((a) => !a.startsWith('-'))
  return end < 0 ? before : [...before, ...args.slice(end + 1)]
}

/** find's actions that write a file of their own. */
const FIND_WRITES = new Set(['-fprint', '-fprint0', '-fprintf', '-fls'])

/**
 * Whether one simple command writes a file besides what it is: an output redirect to anything but
 * a harmless device, or find's -fprint and kin. Over its disk quota an environment runs only
 * commands that free space or look at it, and `find / >> list` looked like one (exec.ts).
 */
export function writesFiles(base: string, argWords: ArgJson[], redirects: Json[]): boolean {
  if (base === 'find' && argWords.some((word) => FIND_WRITES.has(wordValue(word)))) return true
  return redirects.some((redirect) => {
    const target = redirect.target as WordJson | undefined
    return (
      WRITE_REDIRECTS.has(String(redirect.operator)) &&
      !HARMLESS_DEVICES.test(target ? wordValue(target) : '')
    )
  })
}

/** The denylist hits for one simple command (name already reduced to its base). */
export function builtinDenies(base: string, argWords: ArgJson[], redirects: Json[]): BuiltinHit[] {
  const args = argWords.map(wordValue)
  const hits: BuiltinHit[] = []
  if (PRIVILEGE.has(base))
    hits.push(deny('privilege', `${base} changes user or privileges; it never runs here`))
  if (POWER.has(base) || (/^(tel)?init$/.test(base) && /^[06]$/.test(args[0] ?? ''))) {
    hits.push(deny('power', `${base} would stop or restart the machine`))
  }
  if (base === 'systemctl' && /^(poweroff|reboot|halt|kexec|suspend|hibernate)$/.test(args[0] ?? '')) {
    hits.push(deny('power', `systemctl ${args[0]} would stop or restart the machine`))
  }
  if (/^(mkfs|mke2fs|mkswap|wipefs)/.test(base)) hits.push(deny('mkfs', `${base} formats a device`))
  if (base === 'rm' && (hasRecursiveFlag(args) || args.includes('--no-preserve-root'))) {
    const target = operands(args).find(isRootish)
    if (target !== undefined || args.includes('--no-preserve-root')) {
      hits.push(deny('rm-root', `rm would delete ${target ?? '/'} recursively`))
    }
  }
  if (base === 'find') {
    const roots = args
      .slice(
        0,
        Math.max(
          0,
          args.findIndex((a) => a.startsWith('-')),
        ),
      )
      .filter(isRootish)
    const deletes =
      args.includes('-delete') ||
      args.some((a, i) => /^-(exec|execdir)$/.test(a) && /^(rm|shred|unlink)$/.test(args[i + 1] ?? ''))
    if (roots.length > 0 && deletes) hits.push(deny('rm-root', `find would delete files under ${roots[0]}`))
  }
  if (RECURSIVE_OWNERSHIP.has(base) && hasRecursiveFlag(args)) {
    const target = operands(args).find(isRootish)
    if (target !== undefined)
      hits.push(deny('chmod-root', `${base} -R on ${target} changes the whole system`))
  }
  if (base === 'dd') {
    const output = args.find((a) => a.startsWith('of='))?.slice(3)
    if (output?.startsWith('/dev/') && !HARMLESS_DEVICES.test(output)) {
      hits.push(deny('dd-device', `dd would write to the device ${output}`))
    }
  }
  for (const redirect of redirects) {
    const target = redirect.target as WordJson | undefined
    const value = target ? wordValue(target) : ''
    if (WRITE_REDIRECTS.has(String(redirect.operator)) && BLOCK_DEVICE.test(value)) {
      hits.push(deny('device-write', `the command would write to the device ${value}`))
    }
  }
  return hits
}
