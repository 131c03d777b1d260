/**
 * A button pressed from the keyboard keeps the focus while its request is out and after it: busy,
 * it is aria-disabled rather than disabled, since a disabled element loses the focus to the page
 * (decision 0420). The next Tab then goes on from the button, not from the top of the page.
 */
import { expect, test } from '@playwright/test'
import { createJobOverApi, holdPosts, signUp, uniqueEmail } from './helpers.ts'

// Sign-up and a run through the shared server's scheduler on a busy machine.
test.describe.configure({ timeout: 120_000 })

test('Run now pressed with Enter keeps the focus, and takes no second press while it starts', async ({
  page,
}) => {
  await signUp(page, 'Kim Keys', uniqueEmail('kim'))
  const job = await createJobOverApi(page, {
    name: 'keyboard',
    schedule: '0 7 1 1 *',
    instructions: 'Say done.',
  })

  await page.goto(`/jobs/${job.id}`)
  const runNow = page.getByRole('button', { name: 'Run now', exact: true })
  // Enabled once the page has hydrated (decision 0537): before that it takes no focus, and Enter does nothing.
  await expect(runNow).toBeEnabled()
  await runNow.focus()
  const release = await holdPosts(page, /\/_agent-native\/jobs\/[^/]+\/run$/)
  await page.keyboard.press('Enter')
  const starting = page.getByRole('button', { name: 'Starting…' })
  await expect(starting).toHaveAttribute('aria-busy', 'true')
  await expect(starting).toBeDisabled()
  await expect(starting).toBeFocused()
  // A second press while it starts asks for no second run.
  await page.keyboard.press('Enter')
  release()
  await expect(page.getByText('Run queued')).toBeVisible()
  await expect(runNow).toBeFocused()
  await expect(page.getByTestId('run-row')).toHaveCount(1)
})

test('a settings form submitted from its button with the keyboard keeps the focus on it', async ({
  page,
}) => {
  await signUp(page, 'Kai Keys', uniqueEmail('kai'))
  await page.goto('/settings/usage')
  const save = page.getByRole('button', { name: 'Save budget' })
  await save.focus()
  const release = await holdPosts(page, /\/settings\/usage\.data/)
  await page.keyboard.press('Enter')
  const busy = page.locator('button[aria-busy="true"]')
  await expect(busy).toHaveText('Saving…')
  await expect(busy).toBeFocused()
  release()
  await expect(busy).toHaveCount(0)
  await expect(save).toBeFocused()
})

test('Pause and Resume pressed with Enter keep the focus on the button', async ({ page }) => {
  await signUp(page, 'Pia Pause', uniqueEmail('pia'))
  const job = await createJobOverApi(page, {
    name: 'pausable',
    schedule: '0 7 * * *',
    instructions: 'Say done.',
  })

  await page.goto(`/jobs/${job.id}`)
  const pause = page.getByRole('button', { name: 'Pause', exact: true })
  // Enabled once the page has hydrated: before that it is disabled, takes no focus, and Enter does nothing.
  await expect(pause).toBeEnabled()
  await pause.focus()
  await page.keyboard.press('Enter')
  const resume = page.getByRole('button', { name: 'Resume', exact: true })
  await expect(resume).toBeVisible()
  await expect(resume).toBeFocused()
  // Pressed again once the pause has landed (while it is out, a press asks for nothing).
  await expect(resume).not.toHaveAttribute('aria-busy')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeFocused()
})

test("the job editor's Save keeps the focus once it has saved, with nothing left to save", async ({
  page,
}) => {
  await signUp(page, 'Sol Save', uniqueEmail('sol'))
  const job = await createJobOverApi(page, {
    name: 'editable',
    schedule: '0 7 1 1 *',
    instructions: 'Say done.',
  })

  await page.goto(`/jobs/${job.id}`)
  await page.getByRole('tab', { name: 'Definition' }).click()
  await page.getByLabel('Prompt').fill('Say done, twice.')
  const save = page.getByRole('button', { name: 'Save changes' })
  await save.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByText('Unsaved changes')).toHaveCount(0)
  // Saved: nothing to save, said to assistive technology, and the focus stays on the button.
  await expect(save).toHaveAttribute('aria-disabled', 'true')
  await expect(save).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByText('Unsaved changes')).toHaveCount(0)
})
