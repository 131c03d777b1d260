/**
 * The Docker engine for tests. Where one answers, the tests run against it with a small local
 * image (scripts/sandbox-test-image.sh, made on first use: registries are out of reach here);
 * where none does, they skip and say why — except under `REQUIRE_DOCKER=1` (set by `.ci/run`),
 * where a missing engine fails the file instead of hiding the tests.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '../..')

/** The tag the tests run containers from (SANDBOX_DOCKER_IMAGE for the servers they start). */
export const TEST_SANDBOX_IMAGE = 'clockwork-test-sandbox:latest'

export type DockerForTests = { ok: true; image: string } | { ok: false; why: string }

let ready: Promise<DockerForTests> | undefined

/** Whether the tests have a Docker engine, with the test image built; throws under REQUIRE_DOCKER=1. */
export function dockerForTests(): Promise<DockerForTests> {
  ready ??= probe()
  return ready
}

async function probe(): Promise<DockerForTests> {
  try {
    await run('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 20_000 })
  } catch (error) {
    const why = `no Docker engine answers \`docker info\`: ${lastLine(error)}`
    if (process.env.REQUIRE_DOCKER === '1') throw new Error(`REQUIRE_DOCKER=1, but ${why}`, { cause: error })
    return { ok: false, why }
  }
  await run(path.join(root, 'scripts/sandbox-test-image.sh'), [TEST_SANDBOX_IMAGE], { timeout: 120_000 })
  return { ok: true, image: TEST_SANDBOX_IMAGE }
}

function lastLine(error: unknown): string {
  const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim()
  return stderr.split('\n').pop() || (error as Error).message
}
