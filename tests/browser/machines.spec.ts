import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { holdPosts, signUp, uniqueEmail } from './helpers.ts'
import { expectWhole } from './look.ts'

/** Runs what the connect command downloads, with the command's own arguments, as a person would. */
async function startClient(baseURL: string, command: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-browser-machine-'))
  const file = path.join(dir, 'client.mjs')
  writeFileSync(file, await (await fetch(`${baseURL}/_agent-native/machines/client.mjs`)).text())
  const args = command.slice(command.indexOf('--server')).split(' ')
  const client = spawn(process.execPath, [file, ...args.slice(0, -1), dir], { stdio: 'ignore' })
  return { dir, client }
}

test('connect a machine: the token shown once in a copyable command naming its own machine, the real client, then online; Disconnect ends it', async ({
  page,
  baseURL,
}) => {
  await signUp(page, 'Mia Moss', uniqueEmail('mia'))
  await page.goto('/settings/machines')
  await expect(page.getByText('No machine connected yet')).toBeVisible()
  await page.getByRole('button', { name: 'Connect a machine' }).click()
  // The dialog says plainly what the machine's commands can reach.
  await expect(page.getByTestId('machine-reach')).toContainText('run as your user account')
  await expect(page.getByTestId('machine-reach')).toContainText('cd ..')
  await expect(page.getByText('only inside the directory you give')).toHaveCount(0)
  await page.getByLabel('Token name').fill("Mia's laptop")
  await page.getByRole('button', { name: 'Create token' }).click()
  const command = (await page.getByTestId('connect-command').textContent()) ?? ''
  const token = command.match(/--token (cwm_\S+)/)?.[1]
  expect(token).toBeTruthy()
  expect(command).toContain(`${baseURL}/_agent-native/machines/client.mjs`)
  // The machine's id and label come from the token: the command names neither.
  expect(command).not.toContain('--id')
  expect(command).not.toContain('--label')
  await expect(page.getByTestId('connect-machine')).toContainText('provider: machine:mias-laptop')

  const { dir, client } = await startClient(baseURL!, command)
  try {
    await page.getByRole('button', { name: 'Done' }).click()
    await expect(async () => {
      await page.reload()
      await expect(page.getByTestId('machine-mias-laptop')).toContainText('online')
    }).toPass({ timeout: 15_000 })
    await expect(page.getByTestId('machine-mias-laptop')).toContainText("Mia's laptop")
    await expect(page.getByTestId('machine-mias-laptop')).toContainText(dir)
    await expect(page.getByText("Mia's laptop · connects mias-laptop · made")).toBeVisible()

    const exited = once(client, 'exit')
    // Until the server answers, the button says it is disconnecting (the request is held here).
    const release = await holdPosts(page, /\/settings\/machines\.data/)
    const disconnect = page.getByRole('button', { name: "Disconnect Mia's laptop" })
    await disconnect.click()
    await expect(disconnect).toHaveText('Disconnecting…')
    await expect(disconnect).toHaveAttribute('aria-busy', 'true')
    release()
    await expect(page.getByTestId('machine-mias-laptop')).toHaveCount(0)
    await expect(page.getByText('No machine connected yet')).toBeVisible()
    const [code] = await exited
    expect(code).toBe(0) // the client was told it was disconnected, and stopped
  } finally {
    client.kill()
    rmSync(dir, { recursive: true, force: true })
  }
})

test('Settings → Machines fits 390 px with a 64-character machine name', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signUp(page, 'Max Machine', uniqueEmail('max'))
  await page.goto('/settings/machines')
  const label = `BuildServerInTheBasement${'Rack'.repeat(10)}`.slice(0, 64)
  await page.getByRole('button', { name: 'Connect a machine' }).click()
  await page.getByLabel('Token name').fill(label)
  await page.getByRole('button', { name: 'Create token' }).click()
  const command = (await page.getByTestId('connect-command').textContent()) ?? ''
  const { dir, client } = await startClient(baseURL!, command)
  try {
    await page.getByRole('button', { name: 'Done' }).click()
    const row = page.locator('li[data-testid^="machine-"]')
    await expect(async () => {
      await page.reload()
      await expect(row).toContainText('online')
    }).toPass({ timeout: 15_000 })
    await expectWhole(row.getByText(label, { exact: true }))
    const disconnect = await row.getByRole('button', { name: `Disconnect ${label}` }).boundingBox()
    expect(disconnect!.x + disconnect!.width).toBeLessThanOrEqual(390)
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBe(0)
  } finally {
    client.kill()
    rmSync(dir, { recursive: true, force: true })
  }
})
