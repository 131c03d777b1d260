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
    globalSetup: ['tests/support/global-setup.ts'],
    // Integration tests share one Postgres server; each file makes its own database.
    fileParallelism: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
