import { expect, it } from 'vitest'
import { isTypegenRace } from './typegen-race.ts'

const types = `${process.cwd()}/.react-router/types`

it('recognises the typegen folder race and nothing else', () => {
  const race = (code: string, path: string) => Object.assign(new Error(code), { code, path })
  expect(isTypegenRace(race('ENOTEMPTY', types))).toBe(true)
  expect(isTypegenRace(race('ENOENT', `${types}/app/routes/+types/jobs.ts`))).toBe(true)
  // The same codes anywhere else, other codes there, and errors without a path all still count.
  expect(isTypegenRace(race('ENOTEMPTY', `${process.cwd()}/.data/environments`))).toBe(false)
  expect(isTypegenRace(race('EACCES', types))).toBe(false)
  expect(isTypegenRace(new Error('ENOTEMPTY .react-router/types'))).toBe(false)
  expect(isTypegenRace(undefined)).toBe(false)
})
