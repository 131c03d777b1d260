import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'
import { joinOrganisation } from './org.ts'

// Two people, an organisation and two page actions: a busy machine needs more than the default.
test.describe.configure({ timeout: 180_000 })

test('the two transfer cards say how the transfer went: the job page’s and Settings → Members’', async ({
  browser,
  baseURL,
}) => {
  const ownerContext = await browser.newContext()
  const owner = await ownerContext.newPage()
  const ownerEmail = uniqueEmail('tove')
  await signUp(owner, 'Tove Owner', ownerEmail)
  const created = await owner.request.post('/_agent-native/jobs', {
    headers: { origin: baseURL! },
    data: { name: 'handover-digest', schedule: '0 7 * * 1-5', instructions: 'Post it.', scope: 'shared' },
  })
  expect(created.status()).toBe(201)
  const { job } = await created.json()

  const memberContext = await browser.newContext()
  const member = await memberContext.newPage()
  const memberEmail = uniqueEmail('mats')
  await signUp(member, 'Mats Member', memberEmail)
  await joinOrganisation(owner, member, memberEmail, 'member')

  // The job page: hand this one job to the member.
  await owner.goto(`/jobs/${job.id}`)
  await owner.getByLabel('New owner').selectOption({ label: `Mats Member (${memberEmail})` })
  await owner.getByRole('button', { name: 'Transfer', exact: true }).click()
  await expect(owner.getByText('Job transferred: the next run uses the new owner’s identity')).toBeVisible()

  // Settings → Members: a refusal shows the server's message, then the transfer back counts the jobs.
  await owner.goto('/settings/members')
  await owner.getByLabel('From', { exact: true }).selectOption({ label: 'Mats Member (1 job)' })
  await owner.getByLabel('To', { exact: true }).selectOption({ label: `Mats Member (${memberEmail})` })
  await owner.getByRole('button', { name: 'Transfer all' }).click()
  await expect(owner.getByText('must be someone other than the current owner')).toBeVisible()
  await owner.getByLabel('To', { exact: true }).selectOption({ label: `Tove Owner (${ownerEmail})` })
  await owner.getByRole('button', { name: 'Transfer all' }).click()
  await expect(owner.getByText('1 job transferred')).toBeVisible()

  await ownerContext.close()
  await memberContext.close()
})
