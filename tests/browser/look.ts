/**
 * What a person sees, measured in the page: the contrast of text against what is behind it,
 * whether an element shows all of its content, and the app's theme. Shared by the specs that
 * check colours and layouts at desktop and phone sizes.
 */
import { expect, type Locator, type Page } from '@playwright/test'

/** The sizes the UX specs check: a laptop and a phone. */
export const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const

/**
 * Chooses the app's theme (as the theme toggle does) for the pages loaded from now on, with the
 * system's preference set to the other one, so a part that follows the system instead of the
 * app's choice shows up.
 */
export async function useTheme(page: Page, theme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: theme === 'dark' ? 'light' : 'dark' })
  await page.evaluate((t) => localStorage.setItem('clockwork-theme', t), theme)
}

/**
 * The WCAG contrast ratio of an element's text against the background it is drawn on (the
 * backgrounds of it and its ancestors composited, transparent ones letting the next show).
 * Colours in any CSS syntax (Tailwind's oklch too) are read back through a canvas.
 */
export function contrastOf(locator: Locator): Promise<number> {
  return locator.evaluate((outer) => {
    // The element that draws the text: down through wrappers that hold all of it.
    let el: Element = outer
    while (el.children.length === 1 && el.children[0]!.textContent === el.textContent) el = el.children[0]!
    const canvas = document.createElement('canvas')
    canvas.width = canvas.height = 1
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!
    const rgba = (color: string): [number, number, number, number] => {
      ctx.clearRect(0, 0, 1, 1)
      ctx.fillStyle = '#000'
      ctx.fillStyle = color
      ctx.fillRect(0, 0, 1, 1)
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data
      return [r!, g!, b!, a! / 255]
    }
    const over = (top: [number, number, number, number], under: number[]) =>
      under.map((u, i) => top[i]! * top[3] + u * (1 - top[3]))
    const chain: Element[] = []
    for (let node: Element | null = el; node; node = node.parentElement) chain.unshift(node)
    let background = [255, 255, 255]
    for (const node of chain) background = over(rgba(getComputedStyle(node).backgroundColor), background)
    const text = over(rgba(getComputedStyle(el).color), background)
    const luminance = (c: number[]) => {
      const [r, g, b] = c.map((v) => {
        const s = v / 255
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
      })
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
    }
    const [hi, lo] = [luminance(text), luminance(background)].sort((a, b) => b - a)
    return (hi! + 0.05) / (lo! + 0.05)
  })
}

/**
 * The element shows all it holds: nothing cut off inside it (its content is no wider than its
 * box), and its box lies within the viewport and, when given, left of `cover` (the chat panel).
 */
export async function expectWhole(locator: Locator, cover?: Locator) {
  const { scrollWidth, clientWidth } = await locator.evaluate((el) => ({
    scrollWidth: el.scrollWidth,
    clientWidth: el.clientWidth,
  }))
  expect(scrollWidth, 'content wider than its box').toBeLessThanOrEqual(clientWidth)
  const box = await locator.boundingBox()
  expect(box, 'not rendered').not.toBeNull()
  const viewport = locator.page().viewportSize()!
  const right = cover
    ? Math.min(viewport.width, (await cover.boundingBox())?.x ?? viewport.width)
    : viewport.width
  expect(box!.x).toBeGreaterThanOrEqual(0)
  expect(box!.x + box!.width, 'past the right edge (or under the chat)').toBeLessThanOrEqual(right + 1)
}

/** Words of the element's text that were split across two lines (a word-break in the middle). */
export function wordsBrokenAcrossLines(locator: Locator): Promise<string[]> {
  return locator.evaluate((el) => {
    const broken: string[] = []
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      for (const match of text.matchAll(/[A-Za-z]{2,}/g)) {
        const range = document.createRange()
        range.setStart(node, match.index)
        range.setEnd(node, match.index + match[0].length)
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)))
        if (tops.size > 1) broken.push(match[0])
      }
    }
    return broken
  })
}

/**
 * The WCAG contrast ratio of a shape drawn by its background colour (a status dot) against what
 * is behind it: the composited backgrounds of its ancestors. Non-text parts need 3:1 (WCAG 1.4.11).
 */
export function graphicContrastOf(locator: Locator): Promise<number> {
  return locator.evaluate((el) => {
    const canvas = document.createElement('canvas')
    canvas.width = canvas.height = 1
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!
    const rgba = (color: string): [number, number, number, number] => {
      ctx.clearRect(0, 0, 1, 1)
      ctx.fillStyle = '#000'
      ctx.fillStyle = color
      ctx.fillRect(0, 0, 1, 1)
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data
      return [r!, g!, b!, a! / 255]
    }
    const over = (top: [number, number, number, number], under: number[]) =>
      under.map((u, i) => top[i]! * top[3] + u * (1 - top[3]))
    const chain: Element[] = []
    for (let node = el.parentElement; node; node = node.parentElement) chain.unshift(node)
    let behind = [255, 255, 255]
    for (const node of chain) behind = over(rgba(getComputedStyle(node).backgroundColor), behind)
    const fill = over(rgba(getComputedStyle(el).backgroundColor), behind)
    const luminance = (c: number[]) => {
      const [r, g, b] = c.map((v) => {
        const s = v / 255
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
      })
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
    }
    const [hi, lo] = [luminance(fill), luminance(behind)].sort((a, b) => b - a)
    return (hi! + 0.05) / (lo! + 0.05)
  })
}
