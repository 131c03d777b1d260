import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { spawnServer, type SpawnedServer } from '../support/spawn-server.ts'

// What production runs (`npm start`, the Dockerfile, the systemd unit): `node build/server/index.js`,
// server/main.ts bundled with the routes by `npm run build`. It must boot on plain node, migrate a fresh database,
// answer its health check and serve pages, with no TypeScript loader anywhere in the process.
let server: SpawnedServer
test.beforeAll(async () => {
  server = await spawnServer({ SCHEDULER_ENABLED: 'false' }, undefined, 'compiled')
})
test.afterAll(async () => server?.stop())

test('the compiled server boots on plain node and answers /health and pages', async ({ page }) => {
  const health = await fetch(`${server.baseUrl}/_agent-native/health`)
  expect(health.status).toBe(200)
  expect(await health.json()).toMatchObject({ ok: true })

  const cmdline = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
  expect(cmdline.slice(1)).toEqual(['build/server/index.js'])

  await page.goto(`${server.baseUrl}/sign-in`)
  await expect(page.getByRole('button', { name: /sign in/i })).toBeVisible()
})

test('pages are compressed and hashed assets are cached for a year, immutably', async () => {
  const html = await fetch(`${server.baseUrl}/sign-in`, { headers: { 'accept-encoding': 'br' } })
  expect(html.headers.get('content-encoding')).toBe('br')
  const asset = /\/assets\/[\w.-]+\.js/.exec(await html.text())?.[0]
  expect(asset).toBeTruthy()
  const res = await fetch(`${server.baseUrl}${asset}`)
  expect(res.status).toBe(200)
  expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
})
