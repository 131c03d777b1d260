/**
 * What the first-run specs share (first-run.spec.ts, first-run-production.spec.ts): signing up on a
 * server of their own, and the test that a server reads `.env` (LOG_LEVEL and AGENT_MODEL). The
 * production server's case has a file of its own so that it runs beside the dev-server tests, which
 * stay in one file, in order, because they share Vite's cache folder.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, type Page } from '@playwright/test'
import { startServerProcess, type ServerProcess } from '../support/server-process.ts'
import { uniqueEmail } from './helpers.ts'

/** A server compiles or loads every page on first visit: slow on a busy machine, so generous bounds. */
export const FIRST_RUN_TIMEOUT = 240_000

export async function signUpAt(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/sign-up`)
  await page.getByLabel('Name').fill('Ada')
  await page.getByLabel('Email').fill(uniqueEmail('ada'))
  await page.getByLabel('Password').fill('password1234')
  // Enabled once hydrated: clicking as soon as a person could.
  const submit = page.getByRole('button', { name: 'Create account' })
  await expect(submit).toBeEnabled({ timeout: 120_000 })
  await submit.click()
  await expect(page).toHaveURL(/\/jobs$/, { timeout: 60_000 })
}

function writeEnvFile(lines: string[]): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'clockwork-dotenv-')), '.env')
  writeFileSync(file, lines.join('\n') + '\n')
  return file
}

const RETIRED_MODEL = 'claude-3-7-sonnet-20250219'

/**
 * A `mode` server started with ENV_FILE naming a file that sets LOG_LEVEL and AGENT_MODEL: a model
 * Anthropic has retired, as in a `.env` copied long ago, which start-up warns about.
 */
export async function serverWithEnvFile(mode: 'production' | 'development') {
  const file = writeEnvFile(['LOG_LEVEL=debug', `AGENT_MODEL=anthropic:${RETIRED_MODEL}`])
  // Whatever the test runner has, the file must be the only source of these two.
  const server = await startServerProcess(mode, {
    ENV_FILE: file,
    LOG_LEVEL: undefined,
    AGENT_MODEL: undefined,
  })
  return { server, file }
}

/** The server took LOG_LEVEL and AGENT_MODEL from the env file, and warned that the model is retired. */
export async function expectEnvFileRead(page: Page, server: ServerProcess, file: string) {
  expect(server.output()).toContain(`read environment from ${file}`)
  // The debug line only appears when the logger saw LOG_LEVEL=debug.
  expect(server.output()).toMatch(/configuration/)
  expect(server.output()).toMatch(/DEBUG|"level":20/)
  expect(server.output()).toContain(`Anthropic retired ${RETIRED_MODEL} on 2026-02-19`)
  await signUpAt(page, server.baseUrl)
  await page.goto(`${server.baseUrl}/settings/models`)
  await expect(page.getByTestId('model-in-use')).toHaveText(`anthropic:${RETIRED_MODEL}`)
  await expect(page.getByTestId('model-retired')).toContainText('AGENT_MODEL=anthropic:claude-sonnet-5-5')
}
