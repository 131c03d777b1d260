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
 * CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Playwright's own download.
 * Returns undefined to mean "Playwright's own"; throws with install advice when none exists.
 */
export function resolveChromium(): string | undefined {
  const configured = process.env.CHROMIUM_PATH
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH=${configured} does not exist`)
    return configured
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
      '  Debian/Ubuntu: sudo apt-get install -y chromium\n' +
      '  anywhere with internet: npx playwright install chromium\n' +
      'or point CHROMIUM_PATH at a Chromium/Chrome binary.',
  )
}
