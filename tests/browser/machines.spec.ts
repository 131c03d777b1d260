import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'

test('connect a machine: the token shown once in a copyable command, the real client, then online', async ({
  page,
  baseURL,
}) => {
  await signUp(page, 'Mia Moss', uniqueEmail('mia'))
  await page.goto('/settings/machines')
  await expect(page.getByText('No machine connected yet')).toBeVisible()
  await page.getByRole('button', { name: 'Connect a machine' }).click()
  await page.getByLabel('Token name').fill("Mia's laptop")
  await page.getByRole('button', { name: 'Create token' }).click()
  const command = (await page.getByTestId('connect-command').textContent()) ?? ''
  const token = command.match(/--token (cwm_\S+)/)?.[1]
  expect(token).toBeTruthy()
  expect(command).toContain(`${baseURL}/_agent-native/machines/client.mjs`)

  // Run what the command downloads, as the person would.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-browser-machine-'))
  const file = path.join(dir, 'client.mjs')
  writeFileSync(file, await (await fetch(`${baseURL}/_agent-native/machines/client.mjs`)).text())
  const client = spawn(
    process.execPath,
    [
      file,
      '--server',
      baseURL!,
      '--token',
      token!,
      '--dir',
      dir,
      '--id',
      'mia-laptop',
      '--label',
      'Mia laptop',
    ],
    {
      stdio: 'ignore',
    },
  )
  try {
    await page.getByRole('button', { name: 'Done' }).click()
    await expect(async () => {
      await page.reload()
      await expect(page.getByTestId('machine-mia-laptop')).toContainText('online')
    }).toPass({ timeout: 15_000 })
    await expect(page.getByTestId('machine-mia-laptop')).toContainText(dir)
    await expect(page.getByText("Mia's laptop · made")).toBeVisible()
  } finally {
    client.kill()
    rmSync(dir, { recursive: true, force: true })
  }
})
