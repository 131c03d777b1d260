/**
 * The boundary of a command, attacked the way a member with an account of their own (open sign-up:
 * an org of their own too) would: through the command box's API. What a command can see of the
 * host (issue 25 items 2, 7, 12), and what one tenant's commands can take from another's (item 9).
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installDir, VIEW_TMP } from '#server/environments/exec/sandbox-view.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { Team, TeamPerson } from '#tests/support/team.ts'

const E = '/_agent-native/environments'
const R = '/_agent-native/resources'
const SETTINGS = '/_agent-native/org-settings'

let agent: AgentApp
let team: Team
/** World-readable host files a command must not see, as a non-root server's own files would be. */
let host: string
const planted = {
  cookie: 'planted-session-cookie-7f3a',
  envFile: 'planted-env-file-91c2',
  snapshot: 'planted-snapshot-0b1d',
  pglite: 'planted-pglite-55e0',
  localRoot: 'planted-local-root-c4d8',
  localRepo: 'planted-local-repo-2a6f',
}
let paths: Record<'cookie' | 'envFile' | 'snapshots' | 'pglite' | 'localRoot', string>

function plant(file: string, text: string) {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 })
  writeFileSync(file, text, { mode: 0o644 })
}

beforeAll(async () => {
  host = mkdtempSync(path.join(tmpdir(), 'clockwork-host-'))
  chmodSync(host, 0o755)
  paths = {
    // A fresh folder in the host's temp dir, as a browser test leaves a saved session behind.
    cookie: path.join(host, 'session', 'cookie.txt'),
    // The server's files outside `.data`, as a deployment may place them.
    envFile: path.join(host, 'etc', 'clockwork.env'),
    snapshots: path.join(host, 'snapshots'),
    pglite: path.join(host, 'pglite'),
    localRoot: path.join(host, 'local-root'),
  }
  plant(paths.cookie, planted.cookie)
  plant(paths.envFile, `CLOCKWORK_PLANTED=${planted.envFile}\n`)
  plant(path.join(paths.snapshots, 'env_x.tar.gz'), planted.snapshot)
  plant(path.join(paths.pglite, 'PG_VERSION'), planted.pglite)
  plant(path.join(paths.localRoot, 'secret.txt'), planted.localRoot)
  const repo = path.join(paths.localRoot, 'repo')
  plant(path.join(repo, 'LOCAL.md'), planted.localRepo)
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' })
  git('init', '-q', '-b', 'main')
  git('add', '.')
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init')
  execFileSync('chmod', ['-R', 'a+rX', paths.localRoot])

  agent = await startAgentApp({
    key: 'sk-ant-deployment-boundary-0025',
    environmentsDir: 'clockwork-envs-boundary-',
    env: {
      ENV_FILE: paths.envFile,
      ENVIRONMENT_SNAPSHOTS_DIR: paths.snapshots,
      PGLITE_DIR: paths.pglite,
      ENVIRONMENT_LOCAL_ROOT: paths.localRoot,
      // An operator who lets each environment have 1000 processes (the default allows 256).
      ENVIRONMENT_MAX_PROCESSES: '1000',
    },
  })
  team = agent.team
}, 240_000)
afterAll(async () => {
  await agent?.close()
  rmSync(host, { recursive: true, force: true })
})

/** A person's command in one of their environments (personal `scratch` unless named). */
async function run(who: TeamPerson, command: string, env = 'scratch', extra: object = {}) {
  const res = await who.client.post(`${E}/${env}/commands`, { command, ...extra })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.result as { stdout: string; stderr: string; exitCode: number | null; timedOut: boolean }
}

async function define(who: TeamPerson, name: string, frontmatter: string) {
  const res = await who.client.put(`${R}/personal/environments/${name}.md`, `---\n${frontmatter}\n---\n`)
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
}

const everything = (result: { stdout: string; stderr: string }) => result.stdout + result.stderr

describe('what a command can see (item 2)', () => {
  it('cannot read a world-readable file in a fresh folder of the host temp dir', async () => {
    const result = await run(team.member, `cat ${paths.cookie}; ls -R ${host}`)
    expect(everything(result)).not.toContain(planted.cookie)
    expect(result.stdout).not.toContain('cookie.txt')
  })

  it("cannot read the server's install folder: source, build, node_modules", async () => {
    const install = installDir()
    const result = await run(
      team.member,
      [
        `cat ${install}/package.json`,
        `cat ${install}/server/env.ts`,
        `ls ${install} ${install}/build ${install}/node_modules`,
      ].join('; '),
    )
    expect(result.stdout).not.toContain('"name": "clockwork"')
    expect(result.stdout).not.toContain('EnvSchema')
    expect(result.stdout).not.toMatch(/^(react|react-router|drizzle-orm|server|package\.json)$/m)
  })

  it('sees system tool folders, a short /etc and nothing else at /', async () => {
    const result = await run(team.member, 'ls -A /; echo ---; ls -A /etc; echo ---; ls -A ~root 2>&1')
    const [top, etc] = result.stdout.split('---\n').map((part) => part.trim().split('\n'))
    // The network layer's helpers live under the install folder, and it masks the server's home:
    // those two paths exist as bare folders.
    const first = (p: string) => p.split('/')[1]!
    const allowed = [
      'bin',
      'dev',
      'etc',
      'lib',
      'lib32',
      'lib64',
      'libx32',
      'proc',
      'sbin',
      'tmp',
      'usr',
      'var',
    ]
    allowed.push(first(installDir()), first(homedir()))
    expect(top!.filter((entry) => !allowed.includes(entry))).toEqual([])
    expect(top).not.toContain('opt')
    expect(top).not.toContain('srv')
    for (const secret of ['shadow', 'hostname', 'machine-id', 'environment', 'npmrc', 'sudoers'])
      expect(etc).not.toContain(secret)
    expect(etc).toContain('passwd')
    expect(etc).toContain('ssl')
  })

  it('gets a private /tmp: nothing from the host, nothing another command left there', async () => {
    // The command's own /tmp (the view's private one), not a path of this host.
    const mine = await run(team.member, `echo left-by-member > ${VIEW_TMP}/left-behind; ls -A ${VIEW_TMP}`)
    expect(mine.stdout).not.toContain(path.basename(host))
    const theirs = await run(team.outsider, `cat ${VIEW_TMP}/left-behind; ls -A ${VIEW_TMP}`)
    expect(everything(theirs)).not.toContain('left-by-member')
    expect(theirs.stdout).not.toContain('left-behind')
  })
})

describe("the server's own files outside .data (item 7)", () => {
  it('are not readable: ENV_FILE, ENVIRONMENT_SNAPSHOTS_DIR, PGLITE_DIR', async () => {
    const result = await run(
      team.member,
      `cat ${paths.envFile}; ls ${paths.snapshots}; cat ${paths.snapshots}/*; cat ${paths.pglite}/PG_VERSION`,
    )
    const seen = everything(result)
    expect(seen).not.toContain(planted.envFile)
    expect(seen).not.toContain(planted.snapshot)
    expect(seen).not.toContain('env_x.tar.gz')
    expect(seen).not.toContain(planted.pglite)
  })
})

describe('ENVIRONMENT_LOCAL_ROOT is for admins (item 12)', () => {
  it("a member's plain cat cannot read it", async () => {
    const result = await run(team.member, `cat ${paths.localRoot}/secret.txt; ls -R ${paths.localRoot}`)
    expect(everything(result)).not.toContain(planted.localRoot)
    expect(result.stdout).not.toContain('LOCAL.md')
  })

  it("a member's file:// git source or git skill is refused, and nothing of it lands", async () => {
    const url = `file://${paths.localRoot}/repo`
    await define(team.member, 'peek', `source: { type: git, url: "${url}" }`)
    const source = await team.member.client.post(`${E}/peek/commands`, { command: 'cat LOCAL.md' })
    expect(source.status).toBe(403)
    expect(source.body.error.message).toMatch(/file:\/\/ sources are for organisation admins only/)
    expect(JSON.stringify(source.body)).not.toContain(planted.localRepo)

    await define(team.member, 'peek-skill', `skills:\n  - { kind: git, repo: "${url}" }`)
    const skill = await team.member.client.post(`${E}/peek-skill/commands`, {
      command: 'cat .skills/*/LOCAL.md',
    })
    expect(skill.status).toBe(403)
    expect(JSON.stringify(skill.body)).not.toContain(planted.localRepo)
  })

  it('an admin may still build from it', async () => {
    await define(team.admin, 'local-repo', `source: { type: git, url: "file://${paths.localRoot}/repo" }`)
    const result = await run(team.admin, 'cat LOCAL.md', 'local-repo')
    expect(result.stdout).toBe(planted.localRepo)
  })
})

describe('tenants are apart, and their limits are the org’s (item 9)', () => {
  it("400 sleeping processes in one org's environment do not stop another org's command", async () => {
    // The attacker owns an org of their own, so they can raise its ceilings as far as the server allows.
    const attacker = team.outsider
    const raised = await attacker.client.patch(SETTINGS, { execLimits: { processes: 1000 } })
    expect(raised.status).toBe(200)
    await define(attacker, 'hog', 'limits: { processes: 1000, timeoutSeconds: 120 }')
    const hog = run(
      attacker,
      'for i in $(seq 400); do sleep 600 & done; touch ready; while [ ! -e stop ]; do sleep 0.2; done; kill $(jobs -p)',
      'hog',
    )
    await expect
      .poll(async () => (await attacker.client.get(`${E}/hog/file?path=ready`)).status, { timeout: 60_000 })
      .toBe(200)
    try {
      const victim = await run(team.member, 'echo still-working', 'scratch')
      expect(victim).toMatchObject({ exitCode: 0, stdout: 'still-working\n' })
    } finally {
      await run(attacker, 'touch stop', 'hog')
      await hog
      await attacker.client.patch(SETTINGS, { execLimits: {} })
    }
  }, 120_000)

  it("caps memory for the environment's processes together, not each one", async () => {
    await define(team.member, 'small', 'limits: { memoryMb: 256 }')
    // Two processes of 180 MiB each: within a per-process limit of 256 MiB, not within one of 256 MiB in all.
    const hold = (mark: string) =>
      `python3 -c "import os,time; a=bytearray(180*2**20); open('${mark}','w').close(); t=time.time()
while not (os.path.exists('m1') and os.path.exists('m2')) and time.time()-t<10: time.sleep(0.05)"`
    const result = await run(
      team.member,
      `rm -f m1 m2; ${hold('m1')} & p1=$!; ${hold('m2')} & p2=$!; wait $p1; e1=$?; wait $p2; e2=$?; echo "$e1 $e2"`,
      'small',
    )
    expect(result.stdout.trim()).not.toBe('0 0')
    expect(result.stdout).toMatch(/137/)
  }, 60_000)

  it('a definition asking more than the org allows gets the org’s ceiling', async () => {
    const owner = team.outsider
    expect((await owner.client.patch(SETTINGS, { execLimits: { timeoutSeconds: 2 } })).status).toBe(200)
    try {
      // Written by a member of that org in practice; the owner's own definition is held the same way.
      await define(owner, 'greedy', 'limits: { timeoutSeconds: 600 }')
      const result = await run(owner, 'sleep 8; echo finished', 'greedy')
      expect(result).toMatchObject({ timedOut: true, stdout: '' })
      expect(result.stderr).toMatch(/longer than 2 s/)
      // Setup is held to the same ceiling.
      await define(owner, 'greedy-setup', 'setup: ["sleep 8; echo set up"]\nlimits: { timeoutSeconds: 600 }')
      const setup = await owner.client.post(`${E}/greedy-setup/commands`, { command: 'true' })
      expect(setup.status).toBe(400)
      expect(setup.body.error.message).toMatch(/setup: step 1 .*longer than 2 s/s)
    } finally {
      await owner.client.patch(SETTINGS, { execLimits: {} })
    }
  }, 60_000)

  it("a caller's timeoutSeconds above the environment's is clamped to it", async () => {
    await define(team.member, 'quick', 'limits: { timeoutSeconds: 2 }')
    const result = await run(team.member, 'sleep 8; echo finished', 'quick', { timeoutSeconds: 60 })
    expect(result).toMatchObject({ timedOut: true, stdout: '' })
    expect(result.stderr).toMatch(/longer than 2 s/)
  }, 60_000)
})
