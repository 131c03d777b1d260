import { expect, it } from 'vitest'
import { createHookPace, HOOK_BURST, HOOK_PER_SECOND } from './hook-pace.ts'

it('gives a burst, then its rate, and a refused ask leaves no debt', () => {
  let now = 0
  const pace = createHookPace(() => now)
  const taken = (n: number) => Array.from({ length: n }, () => pace.take()).filter(Boolean).length
  expect(taken(HOOK_BURST + 40)).toBe(HOOK_BURST)
  now += 1000 / HOOK_PER_SECOND
  expect(taken(5)).toBe(1)
  // However long the flood went on, the time a burst takes to refill refills it.
  now += (HOOK_BURST / HOOK_PER_SECOND) * 1000
  expect(taken(HOOK_BURST + 1)).toBe(HOOK_BURST)
})
