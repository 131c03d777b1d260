import { expect, type Page } from '@playwright/test'
import { randomBytes } from 'node:crypto'
import type { z } from 'zod'
import type { JobCreateInput } from '#server/jobs/schema.ts'
import type { JobView } from '#server/jobs/views.ts'

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

/** A new job's fields as `POST /_agent-native/jobs` takes them (those with a default may be left out). */
export type NewJob = z.input<typeof JobCreateInput>

/**
 * Makes a job over the API as the person signed in on `page`, at the app the page is on (its
 * origin is the request's Origin, so sign in first), expecting 201; answers the job as the API does.
 */
export async function createJobOverApi(page: Page, fields: NewJob): Promise<JobView> {
  const { origin } = new URL(page.url())
  const created = await page.request.post(`${origin}/_agent-native/jobs`, {
    headers: { origin },
    data: fields,
  })
  expect(created.status(), await created.text()).toBe(201)
  return (await created.json()).job as JobView
}

/** A run as `GET /_agent-native/runs/:id` answers it (the fields the specs read). */
export type EndedRun = { id: string; status: string; scheduledFor: string; error?: string | null }

/** Asks for a run of the job now (expecting 202) and polls it until it has ended; answers it. */
export async function runToEnd(
  page: Page,
  origin: string,
  jobId: string,
  timeout = 30_000,
): Promise<EndedRun> {
  const started = await page.request.post(`/_agent-native/jobs/${jobId}/run`, { headers: { origin } })
  expect(started.status()).toBe(202)
  const runId = (await started.json()).run.id as string
  let run: EndedRun | undefined
  await expect
    .poll(
      async () => {
        run = (await (await page.request.get(`/_agent-native/runs/${runId}`)).json()).run as EndedRun
        return run.status
      },
      { timeout },
    )
    .not.toMatch(/^(queued|running)$/)
  return run!
}

/**
 * Holds every POST to a URL matching `url` until the returned function is called, so a spec can
 * see what a button shows while its request is under way. Later requests pass straight through.
 */
export async function holdPosts(page: Page, url: RegExp): Promise<() => void> {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route(url, async (route) => {
    if (route.request().method() === 'POST') await released
    await route.continue()
  })
  return release
}
