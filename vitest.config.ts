import { defineConfig } from 'vitest/config'
import { isTypegenRace } from './config/typegen-race.ts'

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: [
      'server/**/*.test.ts',
      'app/**/*.test.ts',
      'config/**/*.test.ts',
      'tests/integration/**/*.test.ts',
      'tests/architecture/**/*.test.ts',
    ],
    globalSetup: ['tests/support/global-setup.ts'],
    // Integration tests share one Postgres server; each file makes its own database.
    fileParallelism: true,
    // Most files wait on servers, databases and child processes rather than the CPU, so more
    // workers than cores shortens the run (vitest's default is cores - 1, one worker on a
    // two-core machine). VITEST_MAX_WORKERS overrides it.
    maxWorkers: 4,
    testTimeout: 30_000,
    // Hooks start servers: a test app's first load through Vite alone can take most of a minute
    // when every worker starts one at once on two cores (tests/support/test-app.ts).
    hookTimeout: 120_000,
    onUnhandledError: (error) => !isTypegenRace(error),
  },
})
