import { test as base, expect } from '@playwright/test'
import { spawnServer, type SpawnedServer } from '../support/spawn-server.ts'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'

// A server of its own with the scheduler off (the shared one runs it).
const test = base.extend<object, { server: SpawnedServer }>({
  server: [
    async ({}, use) => {
      const server = await spawnServer({ SCHEDULER_ENABLED: 'false' })
      await use(server)
      await server.stop()
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
})

test('with no scheduler running, every page warns that scheduled jobs will not fire', async ({ page }) => {
  await signUp(page, 'Nora Nofire', uniqueEmail('nora'))
  const banner = page.getByRole('alert').filter({ hasText: 'Scheduled jobs will not fire' })
  await expect(banner).toContainText('Scheduled jobs will not fire: no scheduler has been seen yet.')
  await expect(banner).toContainText('SCHEDULER_ENABLED=true')
  await page.getByRole('link', { name: 'Settings' }).click()
  await expect(banner).toBeVisible()
})

test('run now with no scheduler running says the run will wait, in the answer and on screen', async ({
  page,
  baseURL,
}) => {
  await signUp(page, 'Quinn Queue', uniqueEmail('quinn'))
  const createJob = async (name: string) => {
    return createJobOverApi(page, { name, schedule: '0 7 * * 1-5', instructions: 'Say hello.' })
  }
  const job = await createJob('waiting-api')

  const answer = await page.request.post(`/_agent-native/jobs/${job.id}/run`, {
    headers: { origin: baseURL! },
  })
  expect(answer.status()).toBe(202)
  const body = await answer.json()
  expect(body.run.status).toBe('queued')
  expect(body.notice).toMatch(/No scheduler is running/)

  // Another job, so its overlap policy does not skip the click's run behind the queued one.
  await page.goto(`/jobs/${(await createJob('waiting-ui')).id}`)
  await page.getByRole('button', { name: 'Run now', exact: true }).click()
  await expect(page.getByText(/Run queued\. No scheduler is running, so this run waits/)).toBeVisible()
  await expect(page.getByText('it starts within seconds')).toHaveCount(0)
})

test('the banner says how much of the organisation’s own work is waiting', async ({ page, baseURL }) => {
  await signUp(page, 'Quinn Queue', uniqueEmail('quinn'))
  const banner = page.getByRole('alert').filter({ hasText: 'Scheduled jobs will not fire' })
  await expect(banner).toBeVisible()
  await expect(banner).not.toContainText('In this organisation')
  const headers = { origin: baseURL! }
  const job = await createJobOverApi(page, {
    name: 'waits-for-a-scheduler',
    schedule: '0 7 * * *',
    instructions: 'Wait.',
  })
  expect((await page.request.post(`/_agent-native/jobs/${job.id}/run`, { headers })).status()).toBe(202)
  await page.reload()
  await expect(banner).toContainText('In this organisation, 1 run is queued and waiting.')
})
