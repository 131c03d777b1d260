/**
 * docs/screenshots.md (made by `npm run screenshots`, scripts/screenshots.ts) shows every page the
 * review starts from, at both sizes and in both themes, and only pictures that exist: each linked
 * file is a PNG as wide as its name says, and no picture in docs/screenshots/ is left unlinked.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = process.cwd()
const page = readFileSync(path.join(root, 'docs/screenshots.md'), 'utf8')
const linked = [...new Set([...page.matchAll(/!\[[^\]]*\]\((screenshots\/[^)]+)\)/g)].map((m) => m[1]!))]
const WIDTHS = { desktop: 1440, phone: 390 } as const

/** A PNG's width and height, from its IHDR chunk; null when the file is not a PNG. */
function pngSize(file: string): { width: number; height: number } | null {
  const bytes = readFileSync(file)
  if (bytes.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') return null
  if (bytes.subarray(12, 16).toString('ascii') !== 'IHDR') return null
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

describe('docs/screenshots.md', () => {
  it('shows jobs, job, run, calendar, environment and chat at both sizes, light and dark', () => {
    for (const name of ['jobs', 'job', 'run', 'calendar', 'environment', 'chat']) {
      for (const size of Object.keys(WIDTHS)) {
        for (const theme of ['light', 'dark']) {
          expect(linked).toContain(`screenshots/${name}-${size}-${theme}.png`)
        }
      }
    }
  })

  it('links only PNGs that exist, as wide as their names say, and kept small', () => {
    for (const link of linked) {
      const file = path.join(root, 'docs', link)
      const size = pngSize(file)
      expect(size, `${link} is a PNG`).not.toBeNull()
      const kind = /-(desktop|phone)-(light|dark)\.png$/.exec(link)?.[1] as keyof typeof WIDTHS | undefined
      expect(kind, `${link} is named <page>-<desktop|phone>-<light|dark>.png`).toBeDefined()
      expect(size!.width, link).toBe(WIDTHS[kind!])
      expect(readFileSync(file).length, `${link} under 400 KB`).toBeLessThan(400_000)
    }
  })

  it('leaves no picture in docs/screenshots/ unlinked', () => {
    const files = readdirSync(path.join(root, 'docs/screenshots')).map((f) => `screenshots/${f}`)
    expect(files.filter((f) => !linked.includes(f))).toEqual([])
  })
})
