/**
 * The order vitest starts test files in: the long ones first (decision 0330). Four workers share
 * the queue, so a three-minute file that starts last keeps one worker busy for three minutes after
 * the other three have finished. Vitest's own order puts the files slowest in the last run first,
 * but a fresh clone (CI) has no last run and falls back to the largest files first, which are not
 * the slow ones: these run real CLIs, Docker containers, child servers or wait out a timeout.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The long files, longest first, as paths from the repository's root; the rest follow in vitest's
 * order. The first four were the slowest of a whole run on a two-core machine (172, 125, 102 and
 * 98 s of a 1195 s run: `npx vitest run --reporter=json --outputFile=...`, then each file's
 * duration); the others run the real Claude Code CLI or Docker containers too. A path that no
 * longer names a test file fails tests/architecture/test-order.test.ts.
 */
export const LONG_FILES: readonly string[] = [
  'tests/integration/harness-control.test.ts',
  'tests/integration/harness-docker.test.ts',
  'tests/integration/harness-opencode.test.ts',
  'tests/integration/harness.test.ts',
  'tests/integration/mcp-server-claude-code.test.ts',
  'tests/integration/environments-docker.test.ts',
  'tests/integration/sandbox-docker.test.ts',
]

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rest = await super.sort(files)
    const rank = (file: TestSpecification) => {
      const index = LONG_FILES.findIndex((long) => file.moduleId.endsWith(`/${long}`))
      return index === -1 ? LONG_FILES.length : index
    }
    // A stable sort: the files not listed keep vitest's order among themselves.
    return rest.toSorted((a, b) => rank(a) - rank(b))
  }
}
