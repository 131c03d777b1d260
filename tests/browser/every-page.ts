/**
 * What the page-wide checks (contrast, axe) walk: a person with something on every page (a job
 * with a finished run, an environment) and the addresses of those pages.
 */
import { expect, type Page } from '@playwright/test'
import { createJobOverApi, runToEnd, signUp, uniqueEmail } from './helpers.ts'

const SETTINGS = [
  'organisation',
  'members',
  'profile',
  'models',
  'usage',
  'machines',
  'access-tokens',
  'secrets',
  'agent',
  'delivery',
  'integrations',
]

/** Signs a new person up and gives them a job that has run and an environment. */
export async function personWithEverything(page: Page, origin: string, name: string) {
  await signUp(page, name, uniqueEmail(name.split(' ')[0]!.toLowerCase()))
  const { id: jobId } = await createJobOverApi(page, {
    name: 'every-page',
    schedule: '0 7 * * 1-5',
    instructions: 'Summarise the night.',
  })
  const run = await runToEnd(page, origin, jobId)
  const saved = await page.request.put('/_agent-native/resources/personal/environments/every-page.md', {
    headers: { origin, 'content-type': 'text/plain' },
    data: '---\nsetup: []\n---\nAn environment to look at.',
  })
  expect(saved.ok(), await saved.text()).toBe(true)
  const pages = [
    '/jobs',
    '/jobs/new',
    `/jobs/${jobId}`,
    `/jobs/${jobId}?tab=definition`,
    `/jobs/${jobId}?tab=audit`,
    `/jobs/${jobId}/runs/${run.id}`,
    '/environments',
    '/environments/every-page?scope=personal',
    '/workspace',
    '/calendar',
    '/skills',
    '/notifications',
    ...SETTINGS.map((s) => `/settings/${s}`),
  ]
  return { jobId, jobName: 'every-page', pages }
}

/** A signed-in page has hydrated: its scripts run (controls waiting for them are enabled). */
export const appReady = (page: Page) =>
  expect(page.getByRole('button', { name: 'Ask the agent' })).toHaveAttribute('data-ready', 'true')
