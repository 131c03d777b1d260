/**
 * The container reaper sweeps only where a Docker engine answers: a server without one ran
 * `docker ps` every minute, failing quietly. The CLI is the real one behind a wrapper that notes
 * each subcommand; only `docker info` may reach the engine, so no sweep here touches a container.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { dockerState } from '#server/environments/providers/providers-docker.ts'
import { startContainerReaper } from '#server/sandbox/docker-reaper.ts'
import { dockerForTests } from '#tests/support/docker.ts'

const docker = await dockerForTests()
const root = mkdtempSync(join(tmpdir(), 'clockwork-reaper-engine-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** A docker CLI that notes its subcommands; its `info` reaches the real engine when `answers`. */
function notingDocker(name: string, answers: boolean) {
  const bin = join(root, name)
  const log = join(root, `${name}.calls`)
  const info = answers ? '[ "$1" = info ] && exec docker "$@"\n' : ''
  const noEngine = `DOCKER_HOST=unix://${root}/no-engine.sock exec docker "$@"\n`
  writeFileSync(bin, `#!/bin/sh\necho "$1" >> '${log}'\n${info}${noEngine}`, { mode: 0o755 })
  const calls = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [])
  return { bin, calls }
}

describe('the container reaper', () => {
  it('runs no docker command but `docker info` where no engine answers', async () => {
    const cli = notingDocker('docker-without-engine', false)
    const stop = await startContainerReaper(dockerState, cli.bin)
    stop()
    expect(cli.calls()).toEqual(['info'])
  })

  it.skipIf(!docker.ok)(
    `sweeps at once where the engine answers${docker.ok ? '' : ` (skipped: ${docker.why})`}`,
    async () => {
      const cli = notingDocker('docker-with-engine', true)
      const stop = await startContainerReaper(dockerState, cli.bin)
      stop()
      expect(cli.calls()).toEqual(['info', 'ps'])
    },
  )
})
