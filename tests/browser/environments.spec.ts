import { expect as baseExpect, type Page } from '@playwright/test'
import postgres from 'postgres'
import { freePort } from '../support/postgres-server.ts'
import { test } from './environments-server.ts'
import { signUp, uniqueEmail } from './helpers.ts'
import { contentLeft, lineStarts, sidewaysScroll, textsBelowAA, useTheme } from './look.ts'

/** The line of facts under an environment's name ("Personal Ready 12 KB on disk · last activity …"). */
const factsOf = (page: Page) => page.getByRole('heading', { level: 1 }).locator('xpath=following-sibling::p')

/** Where the audit log's heading, its column heads and its first row's text start. */
async function auditLeftEdges(page: Page) {
  const table = page.getByTestId('audit-log')
  return {
    heading: await contentLeft(page.getByRole('heading', { name: 'Audit log' })),
    columnHead: await contentLeft(table.getByRole('columnheader').first()),
    firstCell: await contentLeft(table.getByRole('row').nth(1).getByRole('cell').first()),
  }
}

// A whole story of page loads and sandboxed commands; a busy machine needs more than 60 s, and a
// command's first run (the sandbox starting) more than the default 10 s per step.
test.describe.configure({ timeout: 180_000 })
const expect = baseExpect.configure({ timeout: 30_000 })

test('create an environment from the template, run a command, read its output, file and audit row', async ({
  page,
}) => {
  await signUp(page, 'Eva Engineer', uniqueEmail('eva'))
  await page.getByRole('link', { name: 'Workspace' }).click()
  await page.getByRole('button', { name: 'Environment' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Name').fill('Data Scripts')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/path=environments%2Fdata-scripts\.md/)
  await expect(page.getByTestId('file-verdict')).toContainText('Valid environment definition')
  await expect(page.locator('.cm-content')).toContainText('provider: local')

  await page.getByRole('link', { name: 'Open environment' }).click()
  await expect(page.getByRole('heading', { name: 'data-scripts' })).toBeVisible()
  await expect(page.getByText('Not started', { exact: true })).toBeVisible()
  await expect(page.getByText('Nothing yet.')).toBeVisible()

  // The command box, from the keyboard: type, Enter.
  const command = page.getByLabel('Command')
  await command.fill('echo hello > hi.txt && cat hi.txt')
  await command.press('Enter')
  await expect(page.getByTestId('command-stdout')).toHaveText('hello')
  await expect(page.getByTestId('command-result')).toContainText('Exit 0')
  const audit = page.getByTestId('audit-log')
  await expect(audit).toContainText('echo hello > hi.txt && cat hi.txt')
  await expect(audit.getByText('allowed', { exact: true })).toBeVisible()
  await expect(audit).toContainText('Eva Engineer')

  // The file it wrote, in the tree and the read-only viewer.
  await page.getByRole('link', { name: 'hi.txt' }).click()
  await expect(page).toHaveURL(/file=hi\.txt/)
  await expect(page.locator('.cm-content')).toHaveText('hello')

  // What the policy denies is refused, with the reason, and audited.
  await command.fill('sudo ls')
  await command.press('Enter')
  await expect(page.getByRole('alert').filter({ hasText: 'sudo' })).toBeVisible()
  await expect(audit.getByText('denied', { exact: true })).toBeVisible()

  // At desktop width the facts under the name are one line, and the table's text starts where
  // the audit log's heading does.
  await expect(page.getByTestId('environment-server')).toBeVisible()
  expect(await lineStarts(factsOf(page))).toEqual(['P'])
  const edges = await auditLeftEdges(page)
  expect(edges).toEqual({ heading: edges.heading, columnHead: edges.heading, firstCell: edges.heading })

  await page.getByRole('link', { name: 'Environments', exact: true }).first().click()
  const row = page.getByTestId('environment-personal-data-scripts')
  await expect(row.getByText('Ready')).toBeVisible()
  await expect(row.getByRole('link', { name: 'environments/data-scripts.md' })).toBeVisible()
  // What the organisation's environments hold together, against ORG_MAX_DISK_MB (10 GiB by default).
  await expect(page.getByTestId('environments-disk')).toHaveText(
    /^This organisation's environments hold [\d.]+ (B|KB) of 10\.7 GB \(each measured after its last command\)\.$/,
  )
})

test('Settings → Secrets: add, replace and delete a secret; the value is never shown', async ({ page }) => {
  await signUp(page, 'Sam Secret', uniqueEmail('sam'))
  await page.goto('/settings/secrets')
  await expect(page.getByText('No secrets yet')).toBeVisible()

  await page.getByLabel('Name').fill('api_token')
  await page.getByLabel('Value').fill('tok-first-value-1234')
  await page.getByRole('button', { name: 'Add secret' }).click()
  const row = page.getByTestId('secret-API_TOKEN')
  await expect(row).toContainText('Personal')
  await expect(page.getByLabel('Value')).toHaveValue('')
  await expect(page.locator('body')).not.toContainText('tok-first-value-1234')

  await page.getByLabel('Name').fill('API_TOKEN')
  await page.getByLabel('Value').fill('tok-second-value-5678')
  await page.getByRole('button', { name: 'Replace secret' }).click()
  // The first save's toast says the same, so wait for the form to clear: the replace has landed
  // (typing the next name before then would be wiped by its reset).
  await expect(page.getByLabel('Name')).toHaveValue('')
  await expect(page.getByLabel('Value')).toHaveValue('')
  await expect(page.getByText('Saved API_TOKEN').first()).toBeVisible()
  await expect(page.getByTestId('secret-API_TOKEN')).toHaveCount(1)

  // A bad name is refused next to the field.
  await page.getByLabel('Name').fill('PATH')
  await page.getByLabel('Value').fill('whatever-value')
  await page.getByRole('button', { name: 'Add secret' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'set by the sandbox' })).toBeVisible()

  await row.getByRole('button', { name: 'Delete personal secret API_TOKEN' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByTestId('secret-API_TOKEN')).toHaveCount(0)
  await expect(page.getByText('No secrets yet')).toBeVisible()
})

// Long unbroken text, as a real policy and real commands have: a rule naming a long path (its
// rule and reason repeat it) and a command with one long argument.
const longPath = `/srv/${'deeplynestedfolder/'.repeat(6)}releaseartifacts`
const longRuleDefinition = [
  '---',
  'provider: local',
  'policy:',
  '  commands:',
  `    deny: ["cat ${longPath}*"]`,
  '  default: allow',
  '---',
  '',
  '# pocket',
  '',
].join('\n')

test('the environment page fits 390 px once its audit log has rows, denied and long ones too', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signUp(page, 'Pat Phone', uniqueEmail('pat'))
  await page.goto('/workspace')
  await page.getByRole('button', { name: 'Environment' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Name').fill('Pocket')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/path=environments%2Fpocket\.md/)
  await page.locator('.cm-content').click()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.insertText(longRuleDefinition)
  await expect(page.getByTestId('file-verdict')).toContainText('Valid environment definition')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Saved environments/pocket.md')).toBeVisible()
  await page.getByRole('link', { name: 'Open environment' }).click()
  const command = page.getByLabel('Command')
  const lines = [
    'echo hello > hi.txt && cat hi.txt',
    'sudo ls',
    'ls -la',
    `cat ${longPath}/v1.tar`,
    `echo ${'alongunbrokenargument'.repeat(8)}`,
  ]
  for (const line of lines) {
    await command.fill(line)
    await command.press('Enter')
    await expect(page.getByTestId('audit-log')).toContainText(line)
  }
  expect(await sidewaysScroll(page)).toEqual({ page: 0, boxes: [] })

  // The facts under the name wrap as whole facts, a separator only between two on one line (no
  // line starting "· stored on server …"), and the audit table's text lines up with its heading,
  // in both themes.
  for (const theme of ['light', 'dark'] as const) {
    await useTheme(page, theme)
    await page.reload()
    await expect(page.getByTestId('environment-server')).toBeVisible()
    const starts = await lineStarts(factsOf(page))
    expect(starts.length, theme).toBeGreaterThan(1)
    expect(starts, theme).not.toContain('·')
    const edges = await auditLeftEdges(page)
    expect(edges, theme).toEqual({
      heading: edges.heading,
      columnHead: edges.heading,
      firstCell: edges.heading,
    })
    expect(await textsBelowAA(page), theme).toEqual([])
  }
})

test('a row whose definition is gone has Delete on the list, from the keyboard, on a dark 390 px phone; a refusal shows in the dialog', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.emulateMedia({ colorScheme: 'dark' })
  await signUp(page, 'Lee Leftover', uniqueEmail('lee'))
  await page.goto('/environments')
  await page.getByRole('button', { name: 'New environment' }).click()
  await page.getByRole('dialog').getByLabel('Name').fill('Leftover')
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/\/environments\/leftover\?scope=personal$/)
  const headers = { origin: baseURL! }
  // A command still running keeps it busy: the first Delete is refused (409) while it runs.
  const running = page.request.post('/_agent-native/environments/leftover/commands?scope=personal', {
    headers,
    data: { command: 'sleep 15' },
  })
  // Its record (and folder) exist once the command has started.
  const leftover = async () =>
    (
      (await (await page.request.get('/_agent-native/environments')).json()).environments as {
        name: string
        id: string | null
      }[]
    ).find((e) => e.name === 'leftover')?.id ?? null
  await expect.poll(leftover).not.toBeNull()
  const removed = await page.request.delete('/_agent-native/resources/personal/environments/leftover.md', {
    headers,
  })
  expect(removed.ok()).toBe(true)

  await page.goto('/environments')
  const row = page.getByTestId('environment-personal-leftover')
  await expect(row.getByText('No definition')).toBeVisible()
  // Readable on the phone, Delete included: neither the page nor the list scrolls sideways.
  expect(await sidewaysScroll(page)).toEqual({ page: 0, boxes: [] })
  // Scratch has nothing to delete, and so no Delete.
  await expect(page.getByTestId('environment-personal-scratch').getByRole('button')).toHaveCount(0)
  const remove = row.getByRole('button', { name: 'Delete the personal environment leftover' })
  await expect(remove).toBeEnabled()
  await remove.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('alertdialog', { name: 'Delete the environment leftover?' })
  await expect(dialog).toContainText('It has no definition any more, so it is gone for good.')
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await expect(dialog.getByRole('alert')).toContainText('busy')
  await expect(row).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(remove).toBeFocused()

  // Once the command ends, the same Delete goes through: the row is gone, the focus on the list.
  expect((await running).status()).toBe(200)
  await page.keyboard.press('Enter')
  await dialog.getByRole('button', { name: 'Delete' }).press('Enter')
  await expect(row).toHaveCount(0)
  await expect(page.locator('#environments-list')).toBeFocused()
})

/** A personal environment made from the list's dialog and used once (so it has a folder and a record). */
async function createUsedEnvironment(page: Page, name: string) {
  await page.goto('/environments')
  await page.getByRole('button', { name: 'New environment' }).click()
  await page.getByRole('dialog').getByLabel('Name').fill(name)
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(new RegExp(`/environments/${name.toLowerCase()}\\?scope=personal$`))
  await page.getByLabel('Command').fill('echo here > kept.txt')
  await page.getByLabel('Command').press('Enter')
  await expect(page.getByTestId('command-result')).toContainText('Exit 0')
}

/**
 * Records environment `name`'s folder as living on a server that is gone (gone-host:0badf00d): an
 * address where nothing listens. Its record, whose id it answers.
 */
async function moveToGoneServer(sql: postgres.Sql, name: string) {
  const closed = `http://127.0.0.1:${await freePort()}`
  const [record] = await sql<{ id: string }[]>`
    update environments set instance_id = 'gone-host:0badf00d', instance_url = ${closed}
    where name = ${name} returning id`
  return record!
}

test('an environment whose server is gone: the banner and the Delete dialog say its folder stays there, and Delete removes the record only', async ({
  page,
  server,
}) => {
  await signUp(page, 'Gus Gone', uniqueEmail('gus'))
  await createUsedEnvironment(page, 'Faraway')
  const sql = postgres(server.databaseUrl, { max: 1, onnotice: () => {} })
  try {
    const row = await moveToGoneServer(sql, 'faraway')
    await page.reload()
    await expect(page.getByRole('alert').filter({ hasText: 'Unreachable' })).toContainText(
      'Deleting it now removes only its record; its folder stays on gone-host:0badf00d.',
    )
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    const dialog = page.getByRole('alertdialog', { name: 'Delete the environment faraway?' })
    await expect(dialog).toContainText('the folder and its files stay on gone-host:0badf00d')
    await dialog.getByRole('button', { name: 'Delete' }).click()
    // Its definition stays, so it is listed as not started; the record is gone, its audit kept.
    await expect(page).toHaveURL(/\/environments$/)
    await expect(page.getByTestId('environment-personal-faraway')).toContainText('Not started')
    expect(await sql`select id from environments where id = ${row.id}`).toHaveLength(0)
    expect(await sql`select id from environment_audit where environment_id = ${row.id}`).not.toHaveLength(0)
  } finally {
    await sql.end()
  }
})

test('a row without definition whose server is gone: the list’s Delete, refused as unreachable, offers to delete the record only', async ({
  page,
  server,
  baseURL,
}) => {
  await signUp(page, 'Sol Stray', uniqueEmail('sol'))
  await createUsedEnvironment(page, 'Stray')
  const removed = await page.request.delete('/_agent-native/resources/personal/environments/stray.md', {
    headers: { origin: baseURL! },
  })
  expect(removed.ok()).toBe(true)
  const sql = postgres(server.databaseUrl, { max: 1, onnotice: () => {} })
  try {
    const record = await moveToGoneServer(sql, 'stray')
    await page.goto('/environments')
    // Its definition is gone and its folder is elsewhere: the row says the latter, and has Delete.
    const row = page.getByTestId('environment-personal-stray')
    await expect(row.getByText('On another server')).toBeVisible()
    await row.getByRole('button', { name: 'Delete the personal environment stray' }).click()
    const dialog = page.getByRole('alertdialog', { name: 'Delete the environment stray?' })
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
    await expect(dialog.getByRole('alert')).toContainText('does not answer')
    await expect(row).toBeVisible()
    // The way out the refusal names, one keypress away: the record goes, the folder stays there.
    const recordOnly = dialog.getByRole('button', { name: 'Delete the record only' })
    await recordOnly.press('Enter')
    await expect(row).toHaveCount(0)
    expect(await sql`select id from environments where id = ${record.id}`).toHaveLength(0)
  } finally {
    await sql.end()
  }
})
