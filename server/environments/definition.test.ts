import { describe, expect, it } from 'vitest'
import { environmentTemplate, parseEnvironmentFile } from './definition.ts'

const fails = (text: string) => {
  try {
    parseEnvironmentFile(text)
  } catch (err) {
    return err as { status: number; message: string; field?: string }
  }
  throw new Error('expected the file to be refused')
}

describe('parseEnvironmentFile', () => {
  it('names a connected machine as provider by its id', () => {
    expect(parseEnvironmentFile('---\nprovider: machine:laptop\n---\n').provider).toBe('machine:laptop')
    expect(fails('---\nprovider: "machine:"\n---\n')).toMatchObject({ field: 'provider' })
    expect(fails('---\nprovider: machine:../x\n---\n')).toMatchObject({ field: 'provider' })
  })

  it('reads the template back with its defaults', () => {
    const parsed = parseEnvironmentFile(environmentTemplate('scratch'))
    expect(parsed.provider).toBe('local')
    expect(parsed.policy.commands.ask).toEqual(['git push *'])
    expect(parsed.policy.network.allow).toContain('registry.npmjs.org')
    expect(parsed.limits).toEqual({ timeoutSeconds: 120, diskMb: 1024 })
    expect(parsed.instructions).toMatch(/^# scratch/)
  })

  it('takes a file without frontmatter as instructions with every default', () => {
    const parsed = parseEnvironmentFile('Just notes.')
    expect(parsed).toMatchObject({ provider: 'local', secrets: [], limits: {}, instructions: 'Just notes.' })
    expect(parsed.policy.default).toBe('allow')
  })

  it('points at the line of a bad nested field', () => {
    const text = '---\nprovider: local\nlimits:\n  timeoutSeconds: 120\n  memoryMb: 10\n---\nbody'
    expect(fails(text)).toMatchObject({
      status: 400,
      field: 'limits.memoryMb',
      message: /^Line 5: limits.memoryMb:/,
    })
  })

  it.each([
    ['---\nprovider: docker\n---\n', 'provider', /Line 2: provider: must be "local"/],
    ['---\nsecrets: [github_token]\n---\n', 'secrets.0', /Line 2: .*environment variable name/],
    ['---\nsecrets: [PATH]\n---\n', 'secrets.0', /set by the sandbox/],
    [
      '---\npolicy:\n  network:\n    allow: ["127.0.0.1:5432"]\n---\n',
      'policy.network.allow.0',
      /Line 4: .*not be this machine/,
    ],
    ['---\npolicy:\n  commands:\n    permit: []\n---\n', 'policy.commands.permit', /Line 3: .*unknown field/],
    ['---\npolicy:\n  default: maybe\n---\n', 'policy.default', /Line 3:/],
    ['---\ncolour: blue\n---\n', 'colour', /Line 2: colour: unknown field/],
  ])('refuses %j', (text, field, message) => {
    expect(fails(text)).toMatchObject({ status: 400, field, message })
  })

  it('points at the line of broken YAML and refuses JavaScript frontmatter', () => {
    expect(fails('---\nprovider: local\npolicy: [\n---\n')).toMatchObject({
      field: 'frontmatter',
      message: /^Line \d+: invalid YAML/,
    })
    expect(fails('---js\n{ provider: "local" }\n---\n').status).toBe(400)
    expect(fails('---\nprovider: local\n')).toMatchObject({ field: 'frontmatter', message: /not closed/ })
  })
})
