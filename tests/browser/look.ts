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

/** A piece of visible text below WCAG AA: what it says, where it is, its ratio and the one it needs. */
export type LowContrast = { text: string; where: string; ratio: number; needs: number }

/**
 * WCAG contrast measured in the page, all modes sharing one colour model: `text`, the ratio of an
 * element's text against what it is drawn on (down through wrappers that hold all of its text);
 * `graphic`, of a shape drawn by its background colour (a status dot) against what is behind it;
 * `scan`, every visible piece of text under the element that falls below AA (4.5:1, or 3:1 for
 * large text), placeholders and disabled controls excepted as WCAG excepts them. Backgrounds of
 * an element and its ancestors are composited (a transparent one lets the next show), opacity
 * fades the text, and colours in any CSS syntax (Tailwind's oklch too) are read back through a
 * canvas. Self-contained: Playwright sends its source to the page.
 */
function measureContrast(root: Element, mode: 'text' | 'graphic' | 'scan'): number | LowContrast[] {
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
  const over = (top: [number, number, number, number], under: number[], fade = 1) =>
    under.map((u, i) => top[i]! * top[3] * fade + u * (1 - top[3] * fade))
  const behind = (el: Element | null) => {
    const chain: Element[] = []
    for (let node = el; node; node = node.parentElement) chain.unshift(node)
    let colour = [255, 255, 255]
    for (const node of chain) colour = over(rgba(getComputedStyle(node).backgroundColor), colour)
    return colour
  }
  const luminance = (c: number[]) => {
    const [r, g, b] = c.map((v) => {
      const s = v / 255
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
    })
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
  }
  const ratio = (a: number[], b: number[]) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
    return (hi! + 0.05) / (lo! + 0.05)
  }
  const textRatio = (el: Element) => {
    let fade = 1
    for (let node: Element | null = el; node; node = node.parentElement) {
      fade *= Number(getComputedStyle(node).opacity)
    }
    const background = behind(el)
    return ratio(over(rgba(getComputedStyle(el).color), background, fade), background)
  }
  if (mode === 'graphic') {
    const background = behind(root.parentElement)
    return ratio(over(rgba(getComputedStyle(root).backgroundColor), background), background)
  }
  if (mode === 'text') {
    let el = root
    while (el.children.length === 1 && el.children[0]!.textContent === el.textContent) el = el.children[0]!
    return textRatio(el)
  }
  const found = new Map<string, LowContrast>()
  for (const el of [root, ...root.querySelectorAll('*')]) {
    if (el.closest('svg, script, style, template, noscript, :disabled, [aria-disabled="true"]')) continue
    const ownText = [...el.childNodes]
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent ?? '')
      .join('')
    const isField = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement
    const text = (isField ? el.value : ownText).trim()
    if (!text || (el instanceof HTMLInputElement && ['checkbox', 'radio', 'hidden'].includes(el.type)))
      continue
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue
    const box = el.getBoundingClientRect()
    // Screen-reader-only text is a clipped 1 px box; a closed drawer sits past the screen's edge.
    if (box.width <= 1 || box.height <= 1 || box.right <= 0 || box.left >= innerWidth) continue
    const style = getComputedStyle(el)
    const size = parseFloat(style.fontSize)
    const needs = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700) ? 3 : 4.5
    const measured = textRatio(el)
    if (measured >= needs) continue
    const where = `${el.tagName.toLowerCase()}.${[...el.classList].filter((c) => /text-|bg-/.test(c)).join('.')}`
    found.set(`${where} ${text}`, {
      text: text.slice(0, 48),
      where,
      ratio: Math.round(measured * 100) / 100,
      needs,
    })
  }
  return [...found.values()]
}

/**
 * The WCAG contrast ratio of an element's text against the background it is drawn on (the
 * backgrounds of it and its ancestors composited, transparent ones letting the next show).
 */
export async function contrastOf(locator: Locator): Promise<number> {
  await transitionsEnded(locator.page())
  return locator.evaluate(measureContrast, 'text' as const) as Promise<number>
}

/**
 * Once the page's CSS transitions have ended: a colour on its way is not the one a reader sees. A
 * button enabled as the page hydrates fades from its disabled look (`transition-colors`), one the
 * pointer just left from its hover, every control from the other theme's colours when the theme
 * changes. CSS transitions only: a spinner's animation never ends.
 */
async function transitionsEnded(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a instanceof CSSTransition)
        .map((a) => a.finished.catch(() => {})),
    ).then(() => undefined),
  )
}

/** Every visible piece of text on the page below WCAG AA contrast (an empty list when all reach it). */
export async function textsBelowAA(page: Page): Promise<LowContrast[]> {
  // The pointer off everything: a hover colour is not the one a reader sees at rest.
  await page.mouse.move(0, 0)
  await transitionsEnded(page)
  return page.locator('body').evaluate(measureContrast, 'scan' as const) as Promise<LowContrast[]>
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
  return locator.evaluate(measureContrast, 'graphic' as const) as Promise<number>
}

/**
 * What scrolls sideways in the page's main part: how far the page itself does, and each box inside
 * `main` whose content is wider than it (named by tag and first classes). `{ page: 0, boxes: [] }`
 * when the page fits its width, as a phone needs.
 */
export function sidewaysScroll(page: Page): Promise<{ page: number; boxes: string[] }> {
  return page.locator('main').evaluate((main) => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    boxes: [main, ...main.querySelectorAll('*')]
      .filter((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX))
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 3).join('.')}`),
  }))
}

/**
 * The boxes the element's content takes on screen (empty ones left out), and where its content
 * box ends on the right (inside padding and border).
 */
function contentBoxes(locator: Locator) {
  return locator.evaluate((el) => {
    const range = document.createRange()
    range.selectNodeContents(el)
    const rects = [...range.getClientRects()]
      .filter((r) => r.width > 0 && r.height > 0)
      .map((r) => ({ left: r.left, right: r.right, bottom: r.bottom }))
    const box = el.getBoundingClientRect()
    const style = getComputedStyle(el)
    const contentRight = box.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth)
    return { rects, contentRight }
  })
}

/** How many lines the element's text takes (its line boxes, told apart by their bottoms). */
export async function linesOf(locator: Locator): Promise<number> {
  const { rects } = await contentBoxes(locator)
  return new Set(rects.map((r) => Math.round(r.bottom))).size
}

/**
 * How far the end of the element's text stands from the end of its content box, in pixels: 0 for
 * text set flush right, as amounts in a table are.
 */
export async function gapAfterText(locator: Locator): Promise<number> {
  const { rects, contentRight } = await contentBoxes(locator)
  return Math.round(contentRight - Math.max(...rects.map((r) => r.right)))
}

/**
 * The first character a reader sees on each line of the element, top to bottom: text clipped
 * away by a box around it (a separator hidden past an edge with `overflow: hidden`) is left out,
 * and pieces of text whose middles are within half a line of each other (a badge beside plain
 * text) are one line.
 */
export function lineStarts(locator: Locator): Promise<string[]> {
  return locator.evaluate((el) => {
    const glyphs: { left: number; middle: number; height: number; char: string }[] = []
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      const clips: DOMRect[] = []
      for (let box = node.parentElement; box; box = box.parentElement) {
        if (getComputedStyle(box).overflowX !== 'visible') clips.push(box.getBoundingClientRect())
      }
      const shown = (r: DOMRect) => clips.every((c) => r.right > c.left + 0.5 && r.left < c.right - 0.5)
      for (let i = 0; i < text.length; i++) {
        if (!text[i]!.trim()) continue
        const range = document.createRange()
        range.setStart(node, i)
        range.setEnd(node, i + 1)
        for (const r of range.getClientRects()) {
          if (r.width === 0 || !shown(r)) continue
          glyphs.push({ left: r.left, middle: r.top + r.height / 2, height: r.height, char: text[i]! })
        }
      }
    }
    glyphs.sort((a, b) => a.middle - b.middle)
    const lines: (typeof glyphs)[] = []
    for (const glyph of glyphs) {
      const line = lines.at(-1)
      if (line && glyph.middle - line[0]!.middle < Math.min(glyph.height, line[0]!.height) / 2)
        line.push(glyph)
      else lines.push([glyph])
    }
    return lines.map((line) => line.reduce((a, b) => (b.left < a.left ? b : a)).char)
  })
}

/** Where the element's content starts on screen (its leftmost text or icon), in pixels from the left. */
export async function contentLeft(locator: Locator): Promise<number> {
  const { rects } = await contentBoxes(locator)
  return Math.round(Math.min(...rects.map((r) => r.left)))
}

/** Whether the elements sit on one line: the vertical middle of each falls within every other's box. */
export async function onOneLine(...locators: Locator[]): Promise<boolean> {
  const boxes = await Promise.all(locators.map((l) => l.boundingBox()))
  return boxes.every(
    (a) =>
      a !== null &&
      boxes.every((b) => b !== null && a.y + a.height / 2 >= b.y && a.y + a.height / 2 <= b.y + b.height),
  )
}

/**
 * The fields under the element that cut what they hold, by label: a select narrower than its
 * widest option needs (the width it takes when left to size itself), a text field whose value is
 * wider than its box. Empty when every option and value shows whole.
 */
export function fieldsCut(locator: Locator): Promise<string[]> {
  return locator.evaluate((root) => {
    const cut: string[] = []
    for (const field of root.querySelectorAll<HTMLSelectElement | HTMLInputElement>('select, input')) {
      if (field.getClientRects().length === 0 || ['checkbox', 'radio'].includes(field.type)) continue
      const name = field.labels?.[0]?.textContent?.trim() || field.name
      if (field instanceof HTMLSelectElement) {
        const has = field.offsetWidth
        const given = field.style.width
        field.style.width = 'max-content'
        const needs = field.offsetWidth
        field.style.width = given
        if (needs > has) cut.push(`${name}: ${has} px of the ${needs} px its options need`)
      } else if (field.value && field.scrollWidth > field.clientWidth) {
        cut.push(`${name}: ${field.clientWidth} px of the ${field.scrollWidth} px its value needs`)
      }
    }
    return cut
  })
}
