import { defineConfig } from 'vitest/config'

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
    // Test apps import the routes build natively (tests/support/routes-build.ts): vitest transforming
    // its 1.2 MB again in every file cost more than the import itself.
    server: { deps: { external: [/\/build\/test-routes\//] } },
    globalSetup: ['tests/support/global-setup.ts'],
    // Integration tests share one Postgres server; each file makes its own database.
    fileParallelism: true,
    // Most files wait on servers, databases and child processes rather than the CPU, so more
    // workers than cores shortens the run (vitest's default is cores - 1, one worker on a
    // two-core machine). VITEST_MAX_WORKERS overrides it.
    maxWorkers: 4,
    testTimeout: 30_000,
    // Hooks start servers, spawned ones from source through Vite among them, and the first test
    // app after an edit waits for the routes build (tests/support/routes-build.ts): on two loaded
    // cores either can take most of a minute.
    hookTimeout: 120_000,
    // expect.poll's own default gives up after one second; on two cores in a full run a few
    // requests at once take longer than that (a chat burst failed CI so). The same hang guard as
    // tests/support/poll.ts, for the polls that pass no timeout of their own.
    expect: { poll: { timeout: 20_000, interval: 25 } },
  },
})
