/**
 * The environment's Files view (`/files`, a recursive listing) and `/file` against trees a command
 * shapes: nesting as deep as the kernel allows, names as long as it allows, and names that differ
 * only by case or Unicode normalisation. Every path inside an environment is hostile
 * (docs/security.md): an answer must stay small and come at once, whatever the tree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { ApiClient } from '#tests/support/api-client.ts'

const R = '/_agent-native/resources'
const E = '/_agent-native/environments'
const NFC = 'caf\u00e9.txt'
const NFD = 'cafe\u0301.txt'

let agent: AgentApp
let member: ApiClient

const run = async (command: string) => {
  const made = await member.post(`${E}/trees/commands`, { command })
  expect(made.status).toBe(200)
  expect(made.body.result).toMatchObject({ exitCode: 0 })
  return made.body
}

beforeAll(async () => {
  agent = await startAgentApp({ key: 'sk-ant-tree-attacks-0001', environmentsDir: 'clockwork-trees-' })
  member = agent.team.member.client
  expect((await member.put(`${R}/personal/environments/trees.md`, '---\n---\nTrees.')).status).toBe(201)
  await run('true')
}, 60_000)
afterAll(() => agent?.close())

describe('a recursive listing of a tree a command shaped', () => {
  it('of 300 nested folders with 250-character names: a bounded answer, saying it is cut', async () => {
    // Each entry names its whole path: 300 levels of 251 characters are 11 MB of paths in all.
    await run(`n=$(printf 'a%.0s' $(seq 250)); mkdir -p "long/$(printf "$n/%.0s" $(seq 300))"`)
    try {
      const res = await member.get(`${E}/trees/files?path=long`)
      expect(res.status).toBe(200)
      expect(res.body.truncated).toBe(true)
      expect(JSON.stringify(res.body).length).toBeLessThan(2 * 1024 * 1024)
      expect(res.body.entries.length).toBeGreaterThan(0)
    } finally {
      await run('rm -rf long') // the test's own clean-up (rmSync) cannot name paths this long
    }
  })

  it('of 2,000 nested folders: entered 64 levels deep, saying it is cut', async () => {
    await run(`mkdir -p "deep/$(printf 'd/%.0s' $(seq 2000))"`)
    try {
      const res = await member.get(`${E}/trees/files?path=deep`)
      expect(res.status).toBe(200)
      expect(res.body.truncated).toBe(true)
      const depths = res.body.entries.map((e: { path: string }) => e.path.split('/').length - 1)
      expect(Math.max(...depths)).toBe(64)
    } finally {
      await run('rm -rf deep') // the test's own clean-up (rmSync) overflows its stack, a call a level
    }
  })
})

describe('names that differ only by case or Unicode normalisation', () => {
  it('are listed and read as the distinct files they are', async () => {
    await run(
      `mkdir names && cd names && printf nfc > '${NFC}' && printf nfd > '${NFD}' && ` +
        'printf upper > README.md && printf mixed > Readme.md',
    )
    const listed = await member.get(`${E}/trees/files?path=names`)
    expect(listed.status).toBe(200)
    const paths = listed.body.entries.map((e: { path: string }) => e.path)
    expect(new Set(paths)).toEqual(
      new Set([`names/${NFC}`, `names/${NFD}`, 'names/README.md', 'names/Readme.md']),
    )
    const read = async (name: string) =>
      (await member.get(`${E}/trees/file?path=${encodeURIComponent(`names/${name}`)}`)).body.content
    expect(await read(NFC)).toBe('nfc')
    expect(await read(NFD)).toBe('nfd')
    expect(await read('README.md')).toBe('upper')
    expect(await read('Readme.md')).toBe('mixed')
  })
})

describe('the files a command changed, in a tree it shaped', () => {
  it('of 400 files 60 folders of 250-character names down: recorded and answered cut, saying how long', async () => {
    // Each path is about 15,000 characters: whole, the command's answer, its 400 audit rows and
    // GET .../changes were 6 MB each, and every listing the watcher took held 7 MB of paths.
    const made = await run(
      `n=$(printf 'c%.0s' $(seq 250)); mkdir changes && cd changes && ` +
        `for i in $(seq 60); do mkdir $n && cd $n || exit 1; done && ` +
        `for i in $(seq 100 499); do : > $i$n; done`,
    )
    try {
      const longest = (paths: string[]) => Math.max(...paths.map((p) => p.length))
      expect(made.files.length).toBeGreaterThan(0)
      // Soft: a failure shows every size at once.
      expect.soft(JSON.stringify(made.files).length).toBeLessThan(2 * 1024 * 1024)
      const changes = await member.get(`${E}/${made.environmentId}/changes?limit=500`)
      expect(changes.status).toBe(200)
      const paths = changes.body.changes.map((c: { path: string }) => c.path)
      expect.soft(JSON.stringify(changes.body).length).toBeLessThan(2 * 1024 * 1024)
      expect.soft(longest(paths)).toBeLessThan(4200)
      expect
        .soft(paths.find((p: string) => p.startsWith('changes/')))
        .toMatch(/… \([\d,]+ characters in all\)$/)
      const audit = await member.get(`${E}/${made.environmentId}/audit?limit=200`)
      expect(audit.status).toBe(200)
      const subjects = audit.body.entries.map((e: { subject: string }) => e.subject)
      expect.soft(longest(subjects)).toBeLessThan(4200)
    } finally {
      await run('rm -rf changes')
    }
  }, 120_000)
})
