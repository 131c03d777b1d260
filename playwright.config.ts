import { defineConfig } from '@playwright/test'
import { chromiumArgs, resolveChromium } from './tests/support/chromium.ts'

// The browser tests drive the production build (npm run build) served by the real server
// entry, started by the global setup over a fresh database.
export default defineConfig({
  testDir: 'tests/browser',
  globalSetup: './tests/browser/global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    // No trace while the suite runs: recording one (screencast frames and a DOM snapshot for every
    // action) was about half of the browser tests' CPU, and on failure the report keeps the error,
    // its call log and a screenshot. Rerun a failing spec with `--trace on` to get one (decision 0433).
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: resolveChromium('headless-shell'), args: chromiumArgs },
  },
})
