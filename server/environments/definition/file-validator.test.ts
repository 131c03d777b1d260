import { beforeAll, describe, expect, it } from 'vitest'
import { HttpError } from '../../lib/errors.ts'
import { hasFileValidator, installFileValidators, validateFileContent } from '../../resources/validators.ts'
import { environmentTemplate } from './definition.ts'
import { definitionFileValidator, definitionNameOf } from './file-validator.ts'

// As start-up does (server/http/server.ts).
beforeAll(() => installFileValidators([definitionFileValidator]))

const refusal = (path: string, text: string) => {
  try {
    validateFileContent(path, text)
    return null
  } catch (err) {
    if (!(err instanceof HttpError)) throw err
    return { status: err.status, field: err.field, message: err.message }
  }
}

describe('the environments/<name>.md check the workspace runs on write', () => {
  it('applies to the environments/ folder once installed', () => {
    expect(hasFileValidator('environments/x.md')).toBe(true)
    expect(hasFileValidator('notes/x.md')).toBe(false)
  })

  it('accepts the template and refuses a bad field with its line', () => {
    expect(refusal('environments/tools.md', environmentTemplate('tools'))).toBeNull()
    expect(refusal('environments/tools.md', '---\nprovider: podman\n---\n')).toMatchObject({
      status: 400,
      field: 'provider',
      message: expect.stringMatching(/^Line 2: provider:/),
    })
    // Statuses other than 400 survive the trip through resources too.
    expect(refusal('environments/big.md', `---\n---\n${'x'.repeat(65 * 1024)}`)).toMatchObject({
      status: 413,
    })
  })

  it('refuses a name that is not a slug, and leaves other files alone', () => {
    expect(refusal('environments/My Env.md', '')).toMatchObject({ status: 400, field: 'path' })
    expect(refusal('environments/notes/todo.md', '---\nprovider: podman\n---\n')).toBeNull()
    expect(definitionNameOf('environments/a.md')).toBe('a')
    expect(definitionNameOf('environments/a/b.md')).toBeNull()
  })
})
