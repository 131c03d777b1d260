import { createServer, type Server } from 'node:http'
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile as fsWriteFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { runCommand } from './exec.ts'
import { editFile, writeFile } from '../files/files.ts'
import { prepareFolder, sandboxIdentity } from './identity.ts'
import { currentMechanism, detectMechanism, withCwdHint } from './mechanism.ts'
import { VIEW_TMP } from './sandbox-view.ts'

let base: string
let root: string
let other: string
let dataDir: string
let environmentsDir: string
let owner: { uid: number; gid: number }

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'env-exec-'))
  await chmod(base, 0o711)
  environmentsDir = join(base, 'environments')
  dataDir = join(base, 'data')
  root = join(environmentsDir, 'e1')
  other = join(environmentsDir, 'e2')
  owner = await prepareFolder(root)
  await prepareFolder(other)
  await fsWriteFile(join(other, 'notes.txt'), 'OTHER ENVIRONMENT')
  await mkdir(dataDir)
  await fsWriteFile(join(dataDir, 'db.txt'), 'APP DATA')
})
afterAll(() => rm(base, { recursive: true, force: true }))

const env = (extra: object = {}) => ({ root, ...extra })
const opts = {}
const ctx = () => ({ root, owner })

it('finds a sandbox on this machine', async () => {
  const mechanism = await currentMechanism()
  expect(mechanism.kind, 'why' in mechanism ? mechanism.why : '').toBe('sandbox-runtime')
})

describe('write, run, read the error, fix, run again', () => {
  it('works for node, python3 and sh', async () => {
    await writeFile(ctx(), { path: 'app.js', content: 'console.log(greting)\n' })
    const failing = await runCommand(env(), 'node app.js', opts)
    expect(failing.exitCode).toBe(1)
    expect(failing.stderr).toMatch(/ReferenceError: greting is not defined/)
    await editFile(ctx(), { path: 'app.js', old: 'greting', new: '"hello"' })
    const fixed = await runCommand(env(), 'node app.js', opts)
    expect(fixed).toMatchObject({
      exitCode: 0,
      stdout: 'hello\n',
      timedOut: false,
      mechanism: 'sandbox-runtime',
    })
    expect(fixed.durationMs).toBeGreaterThan(0)

    await writeFile(ctx(), { path: 'tool.py', content: 'print(sum([1, 2]))\n' })
    await writeFile(ctx(), { path: 'run.sh', content: 'echo "sh says $((2 * 3))"\nexit 3\n' })
    expect((await runCommand(env(), 'python3 tool.py', opts)).stdout).toBe('3\n')
    expect(await runCommand(env(), 'bash run.sh', opts)).toMatchObject({ stdout: 'sh says 6\n', exitCode: 3 })
  })
})

describe('package managers (local packages only: tests reach no registry)', () => {
  it('npm install and pip install --target work inside the folder', async () => {
    await writeFile(ctx(), {
      path: 'lib/package.json',
      content: '{"name":"lib","version":"1.0.0","main":"i.js"}',
    })
    await writeFile(ctx(), { path: 'lib/i.js', content: 'module.exports = 42\n' })
    await writeFile(ctx(), { path: 'use.js', content: 'console.log(require("lib"))\n' })
    const npm = await runCommand(
      env(),
      'npm init -y > /dev/null && npm install --offline --no-audit --no-fund ./lib > /dev/null && node use.js',
      opts,
    )
    expect(npm).toMatchObject({ exitCode: 0, stdout: '42\n' })
    await writeFile(ctx(), {
      path: 'pkg/setup.py',
      content: 'from setuptools import setup\nsetup(name="mypkg", version="1.0", packages=["mypkg"])\n',
    })
    await writeFile(ctx(), { path: 'pkg/mypkg/__init__.py', content: 'VALUE = 7\n' })
    const pip = await runCommand(
      env(),
      'python3 -m pip install -q --no-index --no-build-isolation --target vendor ./pkg && PYTHONPATH=vendor python3 -c "import mypkg; print(mypkg.VALUE)"',
      opts,
    )
    expect(pip).toMatchObject({ exitCode: 0, stdout: '7\n' })
  })
})

describe('isolation', () => {
  it('runs as an unprivileged uid with a clean env and HOME inside the folder', async () => {
    process.env.PLANTED_SERVER_SECRET = 'planted-server-secret-value'
    try {
      const result = await runCommand(env(), 'id -u; echo "HOME=$HOME"; env', opts)
      const [uid, home] = result.stdout.split('\n')
      expect(Number(uid)).toBe(sandboxIdentity().uid)
      expect(Number(uid)).not.toBe(0)
      expect(home).toBe(`HOME=${root}`)
      expect(result.stdout).not.toContain('planted-server-secret-value')
      expect(result.stdout).not.toContain('PLANTED_SERVER_SECRET')
      expect(result.stdout).not.toContain('DATABASE_URL')
    } finally {
      delete process.env.PLANTED_SERVER_SECRET
    }
  })

  it('cannot write outside its folder nor read other environments, the data folder or home', async () => {
    const script = [
      `touch ${join(base, 'escaped')} 2>/dev/null`,
      `cat ${join(other, 'notes.txt')} 2>/dev/null`,
      `cat ${join(dataDir, 'db.txt')} 2>/dev/null`,
      `ls /root 2>/dev/null | head -1`,
      'touch inside.txt && echo wrote-inside',
    ].join('\n')
    const result = await runCommand(env(), script, opts)
    expect(result.stdout.trim()).toBe('wrote-inside')
    expect(existsSync(join(base, 'escaped'))).toBe(false)
  })

  it('injects secrets and shows them as •••• in the output', async () => {
    const secrets = { API_TOKEN: 'tok-12345-abcde' }
    const result = await runCommand(
      env({ secrets }),
      'test "$API_TOKEN" = tok-12345-abcde && echo same; echo "token: $API_TOKEN"; printenv API_TOKEN >&2',
      opts,
    )
    expect(result.stdout).toBe('same\ntoken: ••••\n')
    expect(result.stderr).toBe('••••\n')
  })

  it('keeps secrets out of the environment of the host programs that start the sandbox', async () => {
    const value = 'launch-secret-4242'
    // The command waits for its marker file, so its launchers are there to be read meanwhile.
    const running = runCommand(
      env({ secrets: { LAUNCH_TOKEN: value } }),
      'while [ ! -e go ]; do sleep 0.05; done; printf %s "$LAUNCH_TOKEN" | wc -c',
      opts,
    )
    // bwrap's own process on this host (setpriv and prlimit became it by exec): its environment.
    const launchers = async () => {
      const found: { pid: number; environ: string }[] = []
      for (const pid of await readdir('/proc')) {
        if (!/^\d+$/.test(pid)) continue
        const read = (file: string) => readFile(`/proc/${pid}/${file}`, 'latin1').catch(() => '')
        const [comm, cmdline, environ] = await Promise.all([read('comm'), read('cmdline'), read('environ')])
        if (comm.trim() === 'bwrap' && cmdline.includes(root)) found.push({ pid: Number(pid), environ })
      }
      // The first is the one on the host: sandbox-runtime's own bwrap, for the network, is started
      // after it inside the sandbox, as the command, with the command's variables.
      return found.sort((a, b) => a.pid - b.pid).slice(0, 1)
    }
    let seen: { pid: number; environ: string }[] = []
    // The command ends whatever happens here: one left waiting would hold its empty host list in
    // the runtime's allowlist (the intersection of the running commands'), refusing later tests.
    try {
      // Starting a sandbox on a loaded machine can take seconds.
      await vi.waitFor(
        async () => {
          seen = await launchers()
          expect(seen.length).toBeGreaterThan(0)
        },
        { timeout: 20_000, interval: 50 },
      )
    } finally {
      await fsWriteFile(join(root, 'go'), '')
    }
    const result = await running
    await rm(join(root, 'go'))
    const environ = seen[0]!.environ
    expect(environ).toContain('PATH=')
    expect(environ).not.toContain(value)
    // And the command itself has it.
    expect(result.stdout.trim()).toBe(String(value.length))
  })
})

describe('network', () => {
  let allowed: Server
  let denied: Server
  let connections = 0
  const listen = () =>
    new Promise<Server>((resolve) => {
      const server = createServer((_req, res) => res.end('reached'))
      server.on('connection', () => connections++)
      server.listen(0, '127.0.0.1', () => resolve(server))
    })
  const port = (server: Server) => (server.address() as { port: number }).port
  beforeAll(async () => {
    allowed = await listen()
    denied = await listen()
  })
  afterAll(() => {
    allowed.close()
    denied.close()
  })

  const code = (url: string, viaProxy = true) =>
    `curl -sS -m 5 --noproxy ${viaProxy ? "''" : "'*'"} -o /dev/null -w '%{http_code}\\n' ${url} 2>&1; true`

  it('lets an allowed host name through the proxy and refuses every other', async () => {
    // .invalid never resolves: an allowed name gets as far as the proxy's lookup (502), no further.
    const hosts = ['allowed.invalid']
    const ok = await runCommand(env({ allowedHosts: hosts }), code('http://allowed.invalid/'), opts)
    expect(ok.stdout.trim()).toBe('502')
    const refused = await runCommand(env({ allowedHosts: hosts }), code('http://other.invalid/'), opts)
    expect(refused.stdout.trim()).toBe('403')
    const direct = await runCommand(
      env({ allowedHosts: hosts }),
      code(`http://127.0.0.1:${port(allowed)}/`, false),
      opts,
    )
    expect(direct.stdout).not.toMatch(/^200/)
  })

  it('never lets a stored policy reach this host by an address literal or localhost: refused before connecting', async () => {
    // A definition saved before literals were refused, or one that slipped past: the proxy judges again.
    const p = port(allowed)
    connections = 0
    const outcomes = []
    for (const [allow, url] of [
      [`127.0.0.1:${p}`, `http://127.0.0.1:${p}/`],
      [`localhost:${p}`, `http://localhost:${p}/`],
    ]) {
      const tried = await runCommand(env({ allowedHosts: [allow!] }), code(url!), opts)
      outcomes.push(tried.stdout.trim())
    }
    expect(outcomes).toEqual(['403', '403'])
    expect(connections).toBe(0)
  })

  it("finds the proxy relays listening at the command's first instant", async () => {
    // The runtime starts its relays in the background; a command that connects straight away
    // must not see "Failed to connect to localhost port 3128". Several at once, as under load.
    const probe =
      'for p in 3128 1080; do (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null && echo up || echo down; done'
    const results = await Promise.all(
      Array.from({ length: 8 }, () => runCommand(env({ allowedHosts: ['example.com'] }), probe, opts)),
    )
    expect(results.map((r) => r.stdout)).toEqual(Array(8).fill('up\nup\n'))
  })

  it('refuses every host in the bubblewrap fallback', async () => {
    const result = await runCommand(env(), `curl -sS -m 3 http://127.0.0.1:${port(allowed)}/ 2>&1; true`, {
      ...opts,
      mechanism: { kind: 'bwrap', why: 'test' },
    })
    expect(result.stdout).not.toContain('reached')
    expect(result.mechanism).toBe('bwrap')
  })
})

describe('limits', () => {
  it('kills a command that outlives its timeout, with what it printed so far', async () => {
    const result = await runCommand(env(), 'echo started; sleep 30; echo never', {
      ...opts,
      timeoutSeconds: 1,
    })
    expect(result).toMatchObject({ timedOut: true, exitCode: null, stdout: 'started\n' })
    expect(result.stderr).toMatch(/killed: the command ran longer than 1 s/)
  })

  it('stops a command at its CPU-time and memory limits', async () => {
    const cpu = await runCommand(env({ limits: { cpuSeconds: 1 } }), 'node -e "while (true) {}"', opts)
    expect(cpu.exitCode === null || cpu.exitCode > 128).toBe(true)
    const memory = await runCommand(
      env({ limits: { memoryMb: 512 } }),
      'python3 -c "x = bytearray(1024 * 1024 * 1024)" 2>&1 | tail -1; echo "exit ${PIPESTATUS[0]}"',
      opts,
    )
    // Over the box's memory the kernel kills it (137); without cgroups RLIMIT_AS makes it MemoryError.
    expect(memory.stdout).toMatch(/MemoryError|exit 137/)
  })

  it('cuts long output in the middle with a visible marker', async () => {
    const result = await runCommand(
      env({ limits: { outputKb: 16 } }),
      "head -c 600000 /dev/zero | tr '\\0' a; echo END",
      opts,
    )
    expect(result.truncated.stdout).toBe(true)
    expect(result.bytesOut).toBe(600004)
    expect(result.stdout).toMatch(/\[… \d+ bytes of output omitted …\]/)
    expect(result.stdout.endsWith('END\n')).toBe(true)
    expect(result.stdout.length).toBeLessThan(17 * 1024)
  })

  it('enforces the disk quota after a command: writes refused until files are deleted', async () => {
    const quota = env({ limits: { diskMb: 1 } })
    const big = await runCommand(quota, 'for i in 1 2 3; do head -c 600000 /dev/zero > big$i.bin; done', opts)
    expect(big.disk.overQuota).toBe(true)
    expect(big.stderr).toMatch(/over its disk quota/)
    const write = writeFile({ ...ctx(), quotaBytes: 1024 * 1024 }, { path: 'more.txt', content: 'x' })
    await expect(write).rejects.toMatchObject({ status: 507 })
    await expect(runCommand(quota, 'node app.js', opts)).rejects.toMatchObject({ status: 507 })
    // Looking is allowed over the quota; writing a file while looking is not (find / >> list,
    // a second at a time, grew a full environment without end).
    await expect(runCommand(quota, 'find . >> found.txt', opts)).rejects.toMatchObject({ status: 507 })
    await expect(runCommand(quota, 'find . -fprint found.txt', opts)).rejects.toMatchObject({ status: 507 })
    await expect(runCommand(quota, 'ls 2>&1 > listing.txt', opts)).rejects.toMatchObject({ status: 507 })
    expect((await runCommand(quota, 'ls > /dev/null', opts)).exitCode).toBe(0)
    const cleaned = await runCommand(quota, 'rm big1.bin big2.bin big3.bin', opts)
    expect(cleaned.disk.overQuota).toBe(false)
    expect((await runCommand(quota, 'node app.js', opts)).exitCode).toBe(0)
  })
})

describe('no sandbox', () => {
  it('refuses to run with a clear reason instead of running unsandboxed', async () => {
    const none = { kind: 'none' as const, why: 'bubblewrap (bwrap) is missing' }
    await expect(runCommand(env(), 'echo hi', { ...opts, mechanism: none })).rejects.toMatchObject({
      status: 503,
      message: 'execution is unavailable on this server: bubblewrap (bwrap) is missing',
    })
  })

  it('says why when the server runs from inside /tmp', () => {
    // A checkout in /tmp lost the runtime with only bubblewrap's "Can't find source path" to say
    // why: each command's /tmp is a private one, where the server's folder is not.
    const checkout = join(VIEW_TMP, 'clockwork')
    const why = `bwrap: Can't find source path ${checkout}/.git: No such file or directory`
    expect(withCwdHint(why, checkout)).toBe(
      `${why} (the server runs from ${checkout}, inside ${VIEW_TMP}, which each command sees as a ` +
        `private folder of its own: run it from a folder outside ${VIEW_TMP})`,
    )
    expect(withCwdHint(why, join(VIEW_TMP, '..', 'srv', 'clockwork'))).toBe(why)
    expect(withCwdHint(why, `${VIEW_TMP}files`)).toBe(why)
  })

  it('detection falls back to bubblewrap, then to nothing', async () => {
    const fails = (why: string) => async () => why
    const ok = async () => null
    expect(await detectMechanism({ tools: ok, sandboxRuntime: ok, bubblewrap: ok })).toEqual({
      kind: 'sandbox-runtime',
    })
    expect(
      await detectMechanism({ tools: ok, sandboxRuntime: fails('no socat'), bubblewrap: ok }),
    ).toMatchObject({
      kind: 'bwrap',
    })
    expect(
      await detectMechanism({ tools: ok, sandboxRuntime: fails('no socat'), bubblewrap: fails('no bwrap') }),
    ).toEqual({ kind: 'none', why: 'no socat; no bwrap' })
    expect(await detectMechanism({ tools: fails('no prlimit'), sandboxRuntime: ok, bubblewrap: ok })).toEqual(
      {
        kind: 'none',
        why: 'no prlimit',
      },
    )
  })
})
