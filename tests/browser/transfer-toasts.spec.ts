import { expect, test } from '@playwright/test'
import { axeFindings } from './axe.ts'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'
import { textsBelowAA, useTheme } from './look.ts'
import { joinOrganisation } from './org.ts'

// Two people, an organisation and several page actions: a busy machine needs more than the default.
test.describe.configure({ timeout: 180_000 })

test('a job transferred to someone is offered: they accept it on its page, by keyboard, in dark mode; Settings → Members says how its transfer went', async ({
  browser,
}) => {
  const ownerContext = await browser.newContext()
  const owner = await ownerContext.newPage()
  const ownerEmail = uniqueEmail('tove')
  await signUp(owner, 'Tove Owner', ownerEmail)
  const job = await createJobOverApi(owner, {
    name: 'handover-digest',
    schedule: '0 7 * * 1-5',
    instructions: 'Post it.',
    scope: 'shared',
  })

  const memberContext = await browser.newContext()
  const member = await memberContext.newPage()
  const memberEmail = uniqueEmail('mats')
  await signUp(member, 'Mats Member', memberEmail)
  await joinOrganisation(owner, member, memberEmail, 'member')

  // The job page: offer this one job to the member; the owner sees it waiting.
  await owner.goto(`/jobs/${job.id}`)
  await owner.getByLabel('New owner').selectOption({ label: `Mats Member (${memberEmail})` })
  await owner.getByRole('button', { name: 'Transfer', exact: true }).click()
  await expect(owner.getByText('Offered to Mats Member: nothing changes until they accept')).toBeVisible()
  const waiting = owner.getByRole('region', { name: 'Transfer offer' })
  await expect(waiting.getByRole('heading', { name: /Offered to Mats Member/ })).toBeVisible()
  await expect(waiting.getByRole('button', { name: 'Withdraw offer' })).toBeVisible()

  // The jobs list marks the offer: to the owner, whom it waits for; to the member, that it is theirs.
  await owner.goto('/jobs')
  await expect(owner.getByTestId('job-row-handover-digest').getByTestId('offer-chip')).toHaveText(
    'Offered to Mats Member',
  )
  await member.goto('/jobs')
  const memberRow = member.getByTestId('job-row-handover-digest')
  await expect(memberRow.getByTestId('offer-chip')).toHaveText('Offered to you: open it to accept')

  // The member, in dark mode, reads who offered it and what accepting means, and accepts by keyboard.
  await member.goto(`/jobs/${job.id}`)
  await useTheme(member, 'dark')
  await member.reload()
  const offer = member.getByRole('region', { name: 'Transfer offer' })
  await expect(offer.getByRole('heading', { name: /Tove Owner offered you this job/ })).toBeVisible()
  await expect(offer).toContainText('on your own model key')
  expect(await axeFindings(member, 'the offered job')).toEqual([])
  expect(await textsBelowAA(member)).toEqual([])
  const accept = offer.getByRole('button', { name: 'Accept' })
  await expect(accept).toBeEnabled() // once the page has hydrated (decision 0537)
  await accept.focus()
  await member.keyboard.press('Enter')
  await expect(member.getByText('The job is yours: its next run acts as you')).toBeVisible()
  await expect(offer).toBeHidden()
  await member.goto('/jobs')
  await expect(memberRow).toBeVisible()
  await expect(memberRow.getByTestId('offer-chip')).toHaveCount(0)

  // Settings → Members: a refusal shows the server's message, then taking the job back counts it.
  await owner.goto('/settings/members')
  await owner.getByLabel('From', { exact: true }).selectOption({ label: 'Mats Member (1 job)' })
  await owner.getByLabel('To', { exact: true }).selectOption({ label: `Mats Member (${memberEmail})` })
  await owner.getByRole('button', { name: 'Transfer all' }).click()
  await expect(owner.getByText('must be someone other than the current owner')).toBeVisible()
  await owner.getByLabel('To', { exact: true }).selectOption({ label: `Tove Owner (${ownerEmail})` })
  await owner.getByRole('button', { name: 'Transfer all' }).click()
  await expect(owner.getByText('1 job transferred to you')).toBeVisible()

  await ownerContext.close()
  await memberContext.close()
})
