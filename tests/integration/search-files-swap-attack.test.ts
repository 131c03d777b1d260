/**
 * search_files while a command swaps folders for links (an outside review). ripgrep walks a tree by
 * name: it reads a folder's entries, then opens each sub-folder again by its path, so a folder
 * swapped for a link in between (renameat2's RENAME_EXCHANGE, in a loop) is followed, `--no-follow`
 * or not. Run by the server (root), the walk reached `../../..` (ENVIRONMENTS_DIR: folders are
 * org/owner/name, so every other tenant's) and `/etc` (the host's shadow file), and what it found
 * came back to the member. Each search lost the race about one time in five; 25 searches lose it
 * all but about once in 250 runs. In the command view the search now runs in, a link leads only to
 * what the member's own commands see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { callTool } from '#tests/support/agent-chat.ts'

const R = '/_agent-native/resources'
const E = '/_agent-native/environments'
const OUTSIDER_SECRET = 'OUTSIDER-SECRET-7731'
/** In the member's own folder: every search must find it, so a search that failed is not a pass. */
const OWN = 'MEMBER-OWN-5150'
const SEARCHES = 25

let agent: AgentApp

beforeAll(async () => {
  agent = await startAgentApp({ key: 'sk-ant-search-swap-0001', environmentsDir: 'clockwork-search-swap-' })
}, 240_000)
afterAll(() => agent?.close())

/**
 * Folders d1…d24 and links l1…l24 (the first half to ENVIRONMENTS_DIR, the rest to /etc), each
 * pair swapped every few milliseconds until the test leaves `stop` (or 100 s pass). It says it is
 * swapping with the file `swapping`, and prints how many swaps it made.
 */
const SWAPPER = [
  `echo ${OWN} > own.txt`,
  'for i in $(seq 1 24); do mkdir -p d$i && echo x > d$i/f;',
  '  if [ $i -le 12 ]; then ln -sfn ../../.. l$i; else ln -sfn /etc l$i; fi; done',
  `python3 -c '
import ctypes, os, random, time
libc = ctypes.CDLL(None, use_errno=True)
swaps, end = 0, time.time() + 100
while time.time() < end and not os.path.exists("stop"):
    for i in range(1, 25):
        swaps += libc.renameat2(-100, b"d%d" % i, -100, b"l%d" % i, 2) == 0
    if swaps and not os.path.exists("swapping"):
        open("swapping", "w").close()
    time.sleep(random.random() * 0.004)
print("swaps", swaps)
'`,
].join('\n')

describe('search_files while a command swaps folders for links', () => {
  it("never reads another organisation's environment or the host's /etc/shadow", async () => {
    const { outsider, member } = agent.team
    // Another organisation's person keeps a secret in their own personal environment.
    expect((await outsider.client.put(`${R}/personal/environments/vault.md`, '---\n---\nvault')).status).toBe(
      201,
    )
    const wrote = await outsider.client.post(`${E}/vault/commands`, {
      command: `echo ${OUTSIDER_SECRET} > notes.txt`,
    })
    expect(wrote.body.result).toMatchObject({ exitCode: 0 })

    // A command's default time limit (120 s) outlasts the swapper's own (100 s).
    expect((await member.client.put(`${R}/personal/environments/race.md`, '---\n---\nrace')).status).toBe(201)
    const swapping = member.client.post(`${E}/race/commands`, { command: SWAPPER })
    await expect
      .poll(async () => (await member.client.get(`${E}/race/file?path=swapping`)).status, {
        timeout: 30_000,
        interval: 100,
      })
      .toBe(200)

    const answers: string[] = []
    try {
      for (let i = 0; i < SEARCHES; i++) {
        const { output } = await callTool(member.client, agent.fake, 'search_files', {
          environment: 'race',
          pattern: `${OUTSIDER_SECRET}|^root:|${OWN}`,
        })
        const text = JSON.stringify(output)
        answers.push(text)
        if (text.includes(OUTSIDER_SECRET) || text.includes('shadow:1: root:')) break
      }
    } finally {
      await member.client.post(`${E}/race/commands`, { command: 'touch stop' })
    }
    const swapped = await swapping
    expect(swapped.body.result).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/^swaps [1-9]/) })

    // Nothing outside the member's own view: no other tenant's file, no host secret.
    for (const answer of answers) {
      expect(answer).not.toContain(OUTSIDER_SECRET)
      expect(answer).not.toMatch(/shadow:1: root:/)
    }
    // Every search ran, and found what is the member's.
    expect(answers).toHaveLength(SEARCHES)
    for (const answer of answers) expect(answer).toContain(`own.txt:1: ${OWN}`)
  }, 240_000)
})
