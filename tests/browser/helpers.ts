import { expect, type Page } from '@playwright/test'
import { randomBytes } from 'node:crypto'

/** A unique email, so tests never collide in the shared database. */
export function uniqueEmail(name: string): string {
  return `${name.toLowerCase()}-${randomBytes(4).toString('hex')}@example.com`
}

export async function signUp(page: Page, name: string, email: string, password = 'password1234') {
  await page.goto('/sign-up')
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Create account' }).click()
  // Sign-up hashes a password and makes an organisation: slow on a loaded machine.
  await expect(page).toHaveURL(/\/jobs/, { timeout: 60_000 })
}
