import { existsSync } from 'node:fs'
import { chromium } from '@playwright/test'

/** Flags for Debian's Chromium on a machine with no network beyond localhost. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

/**
 * CHROMIUM_PATH, else Debian's Chromium, else Playwright's own download. `headless-shell` (the
 * browser tests) prefers Debian's `chromium-headless-shell`, Chromium's own headless build and what
 * Playwright itself runs headless: the same Blink for a quarter less CPU and time than the full
 * browser in headless mode (decision 0333). Screenshots and benches keep the full browser.
 * Returns undefined to mean "Playwright's own"; throws with install advice when none exists.
 */
export function resolveChromium(prefer: 'browser' | 'headless-shell' = 'browser'): string | undefined {
  const configured = process.env.CHROMIUM_PATH
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH=${configured} does not exist`)
    return configured
  }
  if (prefer === 'headless-shell' && existsSync('/usr/bin/chromium-headless-shell')) {
    return '/usr/bin/chromium-headless-shell'
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium'
  let own: string | undefined
  try {
    own = chromium.executablePath()
  } catch {
    own = undefined
  }
  if (own && existsSync(own)) return undefined
  throw new Error(
    'No Chromium for the browser tests. Install one of:\n' +
      '  Debian/Ubuntu: sudo apt-get install -y chromium-headless-shell chromium\n' +
      '  anywhere with internet: npx playwright install chromium\n' +
      'or point CHROMIUM_PATH at a Chromium/Chrome binary.',
  )
}
