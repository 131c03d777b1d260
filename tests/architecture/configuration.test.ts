/**
 * The environment variables: server/env.ts parses and checks them at start-up, `.env.example` and
 * docs/configuration.md list them with the defaults it applies. What the app reads anywhere else
 * (the migrations folder, a harness CLI's path, what the docker CLI is handed) is read by name and
 * named in both files too, and nothing either file lists is a variable no code reads.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseEnv } from '#server/env.ts'

const root = path.resolve(import.meta.dirname, '../..')
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')

/** The TypeScript files under `dir`, tests left out unless asked for. */
function sources(dir: string, withTests = false): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .map((f) => `${dir}/${f.split(path.sep).join('/')}`)
    .filter((f) => /\.tsx?$/.test(f) && (withTests || !/\.(test|spec)\.tsx?$/.test(f)))
    .filter((f) => statSync(path.join(root, f)).isFile())
}

/**
 * The variables a source reads by name: `process.env.NAME`, `process.env['NAME']`, a harness's
 * `pathVariable: 'NAME'` (read as `process.env[INSTALL.pathVariable]`) and the docker CLI's `keep`
 * list (read as `process.env[k]`).
 */
export function variablesRead(text: string): string[] {
  const names = [
    ...text.matchAll(/process\.env\.([A-Z_][A-Z0-9_]*)/g),
    ...text.matchAll(/process\.env\[['"]([A-Z_][A-Z0-9_]*)['"]\]/g),
    ...text.matchAll(/pathVariable: '([A-Z_][A-Z0-9_]*)'/g),
  ].map((m) => m[1]!)
  const keep = /const keep = \[([^\]]*)\]/.exec(text)?.[1] ?? ''
  return [...names, ...[...keep.matchAll(/'([A-Z_][A-Z0-9_]*)'/g)].map((m) => m[1]!)]
}

/** Files that read `process.env[<expression>]`, each read covered by variablesRead above. */
const READS_BY_EXPRESSION = new Set([
  'server/harness/claude-code.ts',
  'server/harness/opencode.ts',
  'server/sandbox/docker.ts',
])

/** What the running app is made of: the server, the routes, the build config (no tests). */
const appFiles = [
  ...sources('server'),
  ...sources('app'),
  ...sources('config'),
  'react-router.config.ts',
  'vite.config.ts',
  'drizzle.config.ts',
]

/** The running app alone: what the server and the routes read (the build config reads the test suite's). */
const runningAppFiles = [...sources('server'), ...sources('app')]

/** They hand process.env whole to parseEnv, which reads only the names server/env.ts declares. */
const WHOLE_ENVIRONMENT = new Set(['server/env.ts', 'server/lib/load-env.ts'])

/** Set by a tool for itself, not by whoever runs Clockwork. */
const SET_BY_TOOLS = new Set(['VITEST'])

const checked = [...read('server/env.ts').matchAll(/^ {2}([A-Z][A-Z0-9_]+): /gm)].map((m) => m[1]!)
const configuration = read('docs/configuration.md')
const example = read('.env.example')

describe('server/env.ts', () => {
  it('reads the variables of server/env.ts', () => {
    expect(checked).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'BETTER_AUTH_SECRET']))
  })

  it('.env.example lists every variable server/env.ts reads', () => {
    expect(checked.filter((name) => !new RegExp(`^#?\\s*${name}=`, 'm').test(example))).toEqual([])
  })

  it('docs/configuration.md explains every variable server/env.ts reads', () => {
    expect(checked.filter((name) => !configuration.includes(`\`${name}\``))).toEqual([])
  })

  it('.env.example and docs/configuration.md give the defaults server/env.ts applies', () => {
    const defaults = parseEnv({}) as Record<string, unknown>
    const wrong = checked.flatMap((name) => {
      const real = defaults[name] === undefined ? '' : String(defaults[name])
      // The value, up to a note after two spaces (`# ENV_FILE=.env   (set it in the shell…)`).
      const inExample = new RegExp(`^#?\\s*${name}=(.*?)(?: {2,}.*)?$`, 'm').exec(example)?.[1]
      const inDocs = new RegExp(`^- \`${name}\` \\(default \`([^\`]*)\``, 'm').exec(configuration)?.[1]
      return [
        ...(inExample !== real ? [`.env.example: ${name}=${inExample}, the default is "${real}"`] : []),
        ...(real && inDocs !== undefined && inDocs !== real
          ? [`configuration.md: ${name} default ${inDocs}, is ${real}`]
          : []),
        // Without a default the docs say it in words ("unset", "generated in development").
        ...(real && inDocs === undefined ? [`configuration.md: ${name} gives no (default \`${real}\`)`] : []),
      ]
    })
    expect(wrong).toEqual([])
  })
})

describe('variables read outside server/env.ts', () => {
  it('are read by name, or in a file known to read them by expression', () => {
    const unknown = appFiles.filter(
      (file) => /process\.env\[(?!['"])/.test(read(file)) && !READS_BY_EXPRESSION.has(file),
    )
    expect(unknown, 'read it through server/env.ts, or teach variablesRead() the name').toEqual([])
  })

  it('are read one by one: only server/env.ts and its loader take the whole environment', () => {
    // `const e = process.env`, `{ ...process.env }` or `f(process.env)` would read names no check sees.
    const whole = appFiles.filter(
      (file) =>
        !WHOLE_ENVIRONMENT.has(file) &&
        /process\.env(?![.[\w])/.test(read(file).replace(/\/\*[\s\S]*?\*\/|(^|\s)\/\/.*$/gm, '')),
    )
    expect(whole, 'read variables by name (process.env.NAME), or through server/env.ts').toEqual([])
  })

  it('are named in .env.example, the file a newcomer copies', () => {
    const unnamed = runningAppFiles.flatMap((file) =>
      variablesRead(read(file))
        .filter((name) => !SET_BY_TOOLS.has(name) && !new RegExp(`\\b${name}\\b`).test(example))
        .map((name) => `${file}: ${name}`),
    )
    expect(unnamed).toEqual([])
  })

  it('are named in docs/configuration.md', () => {
    const undocumented = appFiles.flatMap((file) =>
      variablesRead(read(file))
        .filter((name) => !checked.includes(name) && !SET_BY_TOOLS.has(name))
        .filter((name) => !configuration.includes(`\`${name}\``))
        .map((name) => `${file}: ${name}`),
    )
    expect(undocumented).toEqual([])
  })
})

describe('.env.example and docs/configuration.md', () => {
  // Besides the app: the test suite's own variables, and NODE_OPTIONS, which Node reads.
  const read_ = new Set([
    ...checked,
    ...appFiles.flatMap((file) => variablesRead(read(file))),
    ...sources('tests', true).flatMap((file) => variablesRead(read(file))),
    'NODE_OPTIONS',
  ])

  it('list no variable that nothing reads', () => {
    const listed = [
      ...[...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => `.env.example: ${m[1]}`),
      ...[...configuration.matchAll(/^- `([A-Z][A-Z0-9_]+)`/gm)].map((m) => `docs/configuration.md: ${m[1]}`),
    ]
    expect(listed.filter((entry) => !read_.has(entry.split(': ')[1]!))).toEqual([])
  })
})

describe('the configuration check itself', () => {
  it('finds variables read by name, by a harness and by the docker CLI', () => {
    const text = [
      "const dir = process.env.MIGRATIONS_DIR ?? 'drizzle'",
      "if (process.env['LOG_LEVEL']) {}",
      "const INSTALL = { pathVariable: 'CLAUDE_CODE_PATH' }",
      "const keep = [\n  'PATH',\n  'DOCKER_HOST',\n]",
      'const x = process.env[name]',
    ].join('\n')
    expect(variablesRead(text)).toEqual([
      'MIGRATIONS_DIR',
      'LOG_LEVEL',
      'CLAUDE_CODE_PATH',
      'PATH',
      'DOCKER_HOST',
    ])
  })
})
