/**
 * The attack (an outside review): the disk watch measured the folder with `du`, which cannot see a
 * file deleted while a process keeps it open. A member's command opens 100 files, deletes each and
 * writes 3 MiB to each (each within the per-file RLIMIT_FSIZE): in a 4 MiB environment it held
 * 300 MiB of the host's disk, shared by every tenant and the database, for as long as it ran, and
 * its result said `disk.usedBytes: 8192`, exit 0. A file made nameless from the start (O_TMPFILE),
 * or mapped and then closed, does the same; so does a container writing to /workspace.
 *
 * The safe outcome: the watch counts what the command's processes hold in deleted files
 * (server/environments/files/held-files.ts) and stops the command once that takes it over its
 * quota, a process that forks and exits in a loop included (its box is frozen while it is read).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { dockerForTests } from '#tests/support/docker.ts'

const R = '/_agent-native/resources'
const E = '/_agent-native/environments'

const docker = await dockerForTests()
let agent: AgentApp

beforeAll(async () => {
  agent = await startAgentApp({
    key: 'sk-ant-unlinked-attack',
    environmentsDir: 'clockwork-envs-unlinked-attack-',
    env: docker.ok ? { SANDBOX_DOCKER_IMAGE: docker.image } : {},
  })
}, 240_000)
afterAll(() => agent?.close())

/**
 * 100 files of 3 MiB that no folder names, held `how`, then 30 s of holding them; `hopping`, a
 * child holds them instead, forking and exiting in a loop, each process handing them to the next.
 */
const holdInPython = (how: 'unlinked' | 'tmpfile' | 'mapped' | 'hopping') => `python3 -c '
import mmap, os, sys, time
how = sys.argv[1]
held = []
for i in range(100):
    if how == "tmpfile":
        fd = os.open(".", os.O_TMPFILE | os.O_RDWR, 0o600)
    else:
        fd = os.open("f%d" % i, os.O_CREAT | os.O_RDWR, 0o600)
        os.unlink("f%d" % i)
    if how == "mapped":
        os.ftruncate(fd, 3 << 20)
        held.append(mmap.mmap(fd, 3 << 20))
        held[-1][:] = b"x" * (3 << 20)
        held[-1].flush()
        os.close(fd)
    else:
        os.write(fd, b"x" * (3 << 20))
        os.fsync(fd)
        held.append(fd)
print("holding", flush=True)
if how == "hopping":
    if os.fork() == 0:
        while os.fork() == 0:
            pass
        os._exit(0)
    for fd in held:
        os.close(fd)
time.sleep(30)
' ${how}`

const holdInNode = `node -e '
const fs = require("fs")
for (let i = 0; i < 100; i++) {
  const fd = fs.openSync("f" + i, "w+")
  fs.unlinkSync("f" + i)
  fs.writeSync(fd, Buffer.alloc(3 << 20, 120))
  fs.fsyncSync(fd)
}
console.log("holding")
setTimeout(() => {}, 30_000)
'`

/** Runs `command` as the member in a 4 MiB environment `name` (`provider` lines first). */
async function runHeld(name: string, command: string, provider: string[] = []) {
  const { member } = agent.team
  const definition = [
    '---',
    ...provider,
    'limits: { diskMb: 4, timeoutSeconds: 60 }',
    '---',
    'hold',
    '',
  ].join('\n')
  const saved = await member.client.put(`${R}/personal/environments/${name}.md`, definition)
  expect(saved.status, JSON.stringify(saved.body)).toBe(201)
  const done = await member.client.post(`${E}/${name}/commands`, { command })
  expect(done.status, JSON.stringify(done.body).slice(0, 1000)).toBe(200)
  return done.body.result as {
    stderr: string
    timedOut: boolean
    exitCode: number | null
  }
}

/** The command was stopped by the watch for what it held, not by its timeout or its own end. */
function expectStoppedForHeldFiles(result: Awaited<ReturnType<typeof runHeld>>) {
  expect(result.stderr).toMatch(
    /stopped: the environment went over its disk quota while the command ran \(.* of 4\.0 MiB, .* of it in deleted files its processes still held open\)/,
  )
  expect(result.timedOut).toBe(false)
  expect(result.exitCode).not.toBe(0)
}

describe('the disk quota against files a command deleted and still holds', () => {
  it.each(['unlinked', 'tmpfile', 'mapped', 'hopping'] as const)(
    'stops a local command holding 300 MiB in files it made nameless (%s)',
    async (how) => {
      expectStoppedForHeldFiles(await runHeld(`held-${how}`, holdInPython(how)))
    },
    120_000,
  )

  it.skipIf(!docker.ok)(
    `stops a container holding 300 MiB in files it deleted from /workspace${docker.ok ? '' : ` (skipped: ${docker.why})`}`,
    async () => {
      expectStoppedForHeldFiles(await runHeld('held-docker', holdInNode, ['provider: docker']))
    },
    120_000,
  )
})
