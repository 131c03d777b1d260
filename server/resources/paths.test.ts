import { describe, expect, it } from 'vitest'
import { contentTypeFor, parsePrefix, parseResourcePath, parseScope } from './paths.ts'

describe('parseResourcePath', () => {
  it.each([
    ['notes.md', { kind: 'file', path: 'notes.md' }],
    ['docs/2026/plan_v2.txt', { kind: 'file', path: 'docs/2026/plan_v2.txt' }],
    ['.env.example', { kind: 'file', path: '.env.example' }],
    ['jobs/daily-signups.md', { kind: 'job', path: 'jobs/daily-signups.md', name: 'daily-signups' }],
    // The jobs service checks the name and answers 400 `name`.
    ['jobs/Bad_Name.md', { kind: 'job', path: 'jobs/Bad_Name.md', name: 'Bad_Name' }],
    ['jobsite/a.md', { kind: 'file', path: 'jobsite/a.md' }],
  ])('%j → %j', (path, expected) => expect(parseResourcePath(path)).toEqual(expected))

  it.each([
    ['', /required/],
    [undefined, /required/],
    ['/etc/passwd', /relative/],
    ['a/../b', /\.\./],
    ['..', /\.\./],
    ['./a', /\. or \.\./],
    ['a//b', /empty/],
    ['a/', /empty/],
    ['a\\b', /not \\/],
    ['a b.md', /letters, digits/],
    ['café.md', /letters, digits/],
    ['a\u0000b', /letters, digits/],
    ['x'.repeat(513), /at most 512/],
    ['jobs', /jobs\/<name>\.md/],
    ['jobs/a.txt', /jobs\/<name>\.md/],
    ['jobs/sub/a.md', /jobs\/<name>\.md/],
    ['jobs/.md', /jobs\/<name>\.md/],
  ])('rejects %j with a 400 naming path', (path, message) => {
    expect(() => parseResourcePath(path)).toThrow(expect.objectContaining({ status: 400, field: 'path' }))
    expect(() => parseResourcePath(path)).toThrow(message)
  })

  it('accepts 512 characters', () => {
    expect(parseResourcePath('x'.repeat(512)).path).toHaveLength(512)
  })
})

describe('parsePrefix', () => {
  it.each([
    [undefined, ''],
    ['', ''],
    ['jobs/', 'jobs/'],
    ['jobs/da', 'jobs/da'],
    ['notes', 'notes'],
  ])('%j → %j', (prefix, expected) => expect(parsePrefix(prefix)).toBe(expected))

  it.each(['/abs', '../x', 'a//b', 'a\\b', 'a b', 5])('rejects %j with a 400 naming prefix', (prefix) => {
    expect(() => parsePrefix(prefix)).toThrow(expect.objectContaining({ status: 400, field: 'prefix' }))
  })
})

describe('parseScope and contentTypeFor', () => {
  it('takes personal and shared only', () => {
    expect(parseScope('personal')).toBe('personal')
    expect(parseScope('shared')).toBe('shared')
    expect(() => parseScope('public')).toThrow(expect.objectContaining({ status: 400, field: 'scope' }))
  })

  it.each([
    ['a.md', 'text/markdown'],
    ['a.JSON', 'application/json'],
    ['a.yml', 'text/yaml'],
    ['page.html', 'text/plain'],
    ['README', 'text/plain'],
  ])('%s is served as %s', (path, type) => expect(contentTypeFor(path)).toBe(type))
})
