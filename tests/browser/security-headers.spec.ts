import { expect, test, type ConsoleMessage } from '@playwright/test'
import { appReady } from './every-page.ts'
import { signUp, uniqueEmail } from './helpers.ts'

// Security review, finding 10: no security headers. Pages and the API now carry a nonce-based CSP,
// no framing, nosniff and a referrer policy, and the app must still work under that CSP.

test('pages and API responses carry the security headers', async ({ request, baseURL }) => {
  for (const path of ['/sign-in', '/_agent-native/health', '/_agent-native/jobs']) {
    const res = await request.get(path)
    const headers = res.headers()
    const csp = headers['content-security-policy'] ?? ''
    expect(csp, path).toMatch(/frame-ancestors 'none'/)
    expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}'/)
    expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-inline'/)
    expect(headers['x-content-type-options'], path).toBe('nosniff')
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin')
    expect(headers['x-frame-options'], path).toBe('DENY')
    // The test server is plain http: no HSTS (it would pin a browser to https on localhost).
    expect(headers['strict-transport-security'], path).toBeUndefined()
  }
  // A fresh nonce per response, and the page's inline scripts carry it.
  const first = await request.get('/sign-in')
  const second = await request.get('/sign-in')
  const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1]
  const nonce = nonceOf(first.headers()['content-security-policy']!)
  expect(nonce).not.toBe(nonceOf(second.headers()['content-security-policy']!))
  const html = await first.text()
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)]
  expect(inline.length).toBeGreaterThan(0)
  for (const [, attrs] of inline) expect(attrs).toContain(`nonce="${nonce}"`)
  expect(baseURL).toBeDefined()
})

test('the app works under the CSP: no violations on the main pages', async ({ page }) => {
  const violations: string[] = []
  const onConsole = (message: ConsoleMessage) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect)/i.test(message.text()))
      violations.push(`${page.url()}: ${message.text()}`)
  }
  page.on('console', onConsole)
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(
        `Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      ),
    )
  })

  await signUp(page, 'Cora Csp', uniqueEmail('cora'))
  await page.getByRole('link', { name: 'New job' }).first().click()
  await expect(page).toHaveURL(/\/jobs\/new/)
  await page.getByRole('link', { name: 'Workspace' }).click()
  await expect(page.getByText('Pick a file')).toBeVisible()
  await page.goto('/settings/profile')
  await page.goto('/settings/models')
  await page.goto('/settings/members')
  await page.goto('/jobs')
  // Hydrated and interactive: the chat panel opens from the keyboard. The shortcut is listened for
  // once the page has hydrated; pressed on the server's HTML (a loaded CI machine) it did nothing.
  await appReady(page)
  await page.keyboard.press('ControlOrMeta+j')
  await expect(page.getByRole('textbox').last()).toBeVisible()
  expect(violations).toEqual([])
})
