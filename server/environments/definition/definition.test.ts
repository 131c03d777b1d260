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

  it('names every bad field with its own line', () => {
    const text = '---\nprovider: nowhere\npolicy:\n  default: maybe\n---\nbody'
    expect(fails(text)).toMatchObject({
      field: 'provider',
      message: /^Line 2: provider: .*; Line 4: policy.default: /,
      fields: [
        { field: 'provider', message: expect.stringMatching(/^Line 2: provider:/) },
        { field: 'policy.default', message: expect.stringMatching(/^Line 4: policy.default:/) },
      ],
    })
  })

  it.each([
    ['---\nprovider: podman\n---\n', 'provider', /Line 2: provider: must be "local", "docker"/],
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

  it('refuses YAML anchors and aliases, naming the line of the anchor', () => {
    expect(
      fails('---\nsetup:\n  - npm ci\n  - &build npm run build\nscripts: { build: *build }\n---\n'),
    ).toMatchObject({
      status: 400,
      field: 'frontmatter',
      message: /^Line 4: YAML anchors and aliases \(&build\) are not allowed/,
    })
  })
})

describe('how the working tree is made (source, setup, scripts, skills, lifecycle)', () => {
  const full = [
    '---',
    'source: { type: git, url: https://github.com/acme/app, ref: main, secret: GH_TOKEN }',
    'packageManager: pnpm',
    'setup:',
    '  - npm ci',
    '  - [npm run build, npm run typecheck]',
    'scripts: { test: npm test }',
    'skills:',
    '  - { kind: file, path: .hints.md, content: "Prefer pnpm." }',
    '  - { kind: git, repo: acme/skills, secret: GH_TOKEN }',
    '  - kind: mcp',
    '    name: docs',
    '    config: { url: "https://docs.example.com/mcp", headers: { Authorization: { bearer: DOCS_TOKEN } } }',
    '  - reviewer',
    'secrets: [GH_TOKEN, DOCS_TOKEN]',
    'lifecycle: { snapshot: after-setup, snapshotMaxAge: 12h }',
    '---',
    'Body.',
  ].join('\n')

  it('reads every part, with a shallow clone by default', () => {
    const parsed = parseEnvironmentFile(full)
    expect(parsed.source).toEqual({
      type: 'git',
      url: 'https://github.com/acme/app',
      ref: 'main',
      depth: 1,
      secret: 'GH_TOKEN',
    })
    expect(parsed.setup).toEqual(['npm ci', ['npm run build', 'npm run typecheck']])
    expect(parsed.scripts).toEqual({ test: 'npm test' })
    expect(parsed.skills).toHaveLength(4)
    expect(parsed.skills[3]).toBe('reviewer')
    expect(parsed.lifecycle).toEqual({ snapshot: 'after-setup', snapshotMaxAge: '12h' })
    expect(parsed.packageManager).toBe('pnpm')
  })

  it('defaults to no source, no setup, auto package manager and a 24 h snapshot', () => {
    const parsed = parseEnvironmentFile('notes')
    expect(parsed).toMatchObject({
      source: { type: 'none' },
      setup: [],
      scripts: {},
      skills: [],
      packageManager: 'auto',
      lifecycle: { snapshot: 'after-setup', snapshotMaxAge: '24h' },
    })
  })

  it.each([
    [
      '---\nsource: { type: git, url: "https://user:pw@github.com/a/b" }\n---\n',
      'source.url',
      /Line 2: source.url: must carry no credentials/,
    ],
    ['---\nsource: { type: git, url: "ssh://github.com/a/b" }\n---\n', 'source.url', /https/],
    ['---\nsource: { type: svn }\n---\n', 'source.type', /Line 2: .*none, git or local/],
    ['---\npackageManager: maven\n---\n', 'packageManager', /Line 2: .*npm/],
    ['---\nsetup:\n  - npm ci\n  - [""]\n---\n', 'setup.1.0', /Line 4: setup.1.0:/],
    ['---\nlifecycle:\n  snapshotMaxAge: forever\n---\n', 'lifecycle.snapshotMaxAge', /Line 3: .*24h/],
    [
      '---\nsecrets: [A_TOKEN]\nskills:\n  - kind: file\n    path: a.md\n    content: x\n  - kind: git\n    repo: acme/skills\n    secret: GH_TOKEN\n---\n',
      'skills.1.secret',
      /Line 9: skills.1.secret: GH_TOKEN must also be listed in secrets/,
    ],
    [
      '---\nskills:\n  - { kind: file, path: ../out.md, content: x }\n---\n',
      'skills.0.path',
      /Line 3: skills.0.path: must be a relative path/,
    ],
  ])('refuses %j naming %s', (text, field, message) => {
    expect(fails(text)).toMatchObject({ status: 400, field, message })
  })
})
