import { describe, expect, it } from 'vitest'
import { JobName, toJobName } from './field-schemas.ts'

describe('toJobName', () => {
  it.each([
    ['Weekly Report!', 'weekly-report'],
    ['  Daily   sign-ups  ', 'daily-sign-ups'],
    ['Café Überblick', 'cafe-uberblick'],
    ['--2026 Q1 // Review--', '2026-q1-review'],
    ['already-a-slug', 'already-a-slug'],
    ['!!!', ''],
  ])('%j → %j', (text, slug) => {
    expect(toJobName(text)).toBe(slug)
  })

  it('always yields a valid job name when there is a letter or digit', () => {
    for (const text of ['Weekly Report!', 'x'.repeat(80) + ' y', 'A'.repeat(62) + ' b', '日本 report 7']) {
      expect(JobName.safeParse(toJobName(text)).success, text).toBe(true)
    }
  })
})
