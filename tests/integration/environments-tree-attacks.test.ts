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
  return made.body.result
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
