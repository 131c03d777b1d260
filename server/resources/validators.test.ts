import { describe, expect, it } from 'vitest'
import { HttpError } from '../lib/errors.ts'
import { hasFileValidator, installFileValidators, validateFileContent } from './validators.ts'

describe('the workspace file checks', () => {
  // In order: this file's process starts with nothing installed, as a start-up that forgot would.
  it('refuses every write until start-up installs the checks, rather than letting files through', () => {
    expect(() => validateFileContent('notes/a.md', 'anything')).toThrow(/never installed/)
    expect(() => validateFileContent('environments/x.md', '---\nprovider: podman\n---\n')).toThrow(
      /never installed/,
    )
  })

  it('turns a check’s problem into the HttpError the handling copy answers with', () => {
    installFileValidators([
      {
        prefix: 'boxes/',
        check: (_path, text) =>
          text === 'ok'
            ? null
            : { status: 400, code: 'bad_request', message: 'size: too big', field: 'size' },
      },
    ])
    expect(() => validateFileContent('boxes/a.md', 'ok')).not.toThrow()
    expect(() => validateFileContent('notes/a.md', 'anything')).not.toThrow()
    let thrown: unknown
    try {
      validateFileContent('boxes/a.md', 'no')
    } catch (err) {
      thrown = err
    }
    expect(thrown).toBeInstanceOf(HttpError)
    expect(thrown).toMatchObject({
      status: 400,
      code: 'bad_request',
      message: 'size: too big',
      field: 'size',
    })
    expect(hasFileValidator('boxes/b.md')).toBe(true)
    expect(hasFileValidator('notes/b.md')).toBe(false)
  })
})
