import { describe, expect, it } from 'vitest'
import { errorMarks, isJobFilePath, jobNameOf, lineOfError } from './job-file-lines.ts'

const file = ['---', 'schedule: "0 25 * * *"', 'timezone: Mars/Olympus', '---', '', 'Do it.'].join('\n')

describe('lineOfError', () => {
  it('takes the line the server names', () => {
    expect(
      lineOfError(file, { message: 'Line 3: invalid YAML: bad indentation', field: 'frontmatter' }),
    ).toBe(3)
  })
  it("finds a field's key in the frontmatter", () => {
    expect(lineOfError(file, { message: 'schedule: hour: 25 is out of range', field: 'schedule' })).toBe(2)
    expect(lineOfError(file, { message: 'timezone: unknown', field: 'timezone' })).toBe(3)
  })
  it('points instructions at the first body line and unknown fields nowhere', () => {
    expect(lineOfError(file, { message: 'instructions: must not be empty', field: 'instructions' })).toBe(5)
    expect(lineOfError(file, { message: 'retries: must be at most 5', field: 'retries' })).toBeNull()
    expect(lineOfError(file, { message: 'Something else' })).toBeNull()
  })
})

describe('errorMarks', () => {
  it('marks every line a problem points at, in order, sharing a line between its problems', () => {
    const problems = [
      { message: 'timezone: unknown', field: 'timezone' },
      { message: 'Line 2: schedule: hour: 25 is out of range', field: 'schedule' },
      { message: 'schedule.minute: too', field: 'schedule.minute' },
      { message: 'Something else' },
    ]
    expect(errorMarks(file, problems)).toEqual([
      { line: 2, message: 'Line 2: schedule: hour: 25 is out of range\nschedule.minute: too' },
      { line: 3, message: 'timezone: unknown' },
    ])
  })
})

describe('job file paths', () => {
  it('knows jobs/<name>.md and nothing deeper', () => {
    expect(isJobFilePath('jobs/daily.md')).toBe(true)
    expect(isJobFilePath('jobs/sub/daily.md')).toBe(false)
    expect(isJobFilePath('notes/daily.md')).toBe(false)
    expect(jobNameOf('jobs/daily.md')).toBe('daily')
  })
})
