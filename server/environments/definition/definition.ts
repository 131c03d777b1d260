/**
 * The environment definition `environments/<name>.md` in the resources workspace: YAML frontmatter
 * (`provider`, `policy`, `secrets`, `limits`, and how its working tree is made: `source`,
 * `packageManager`, `setup`, `scripts`, `skills`, `lifecycle`, see definition-parts.ts) and a body
 * of instructions for the agent. Errors name the field and point at its line.
 */
import { z } from 'zod'
import { badFields, badRequest, HttpError, payloadTooLarge } from '../../lib/errors.ts'
import { parseFrontmatter } from '../../lib/frontmatter.ts'
import { namesInside } from '../../lib/outbound.ts'
import { parseInput } from '../../lib/validate.ts'
import { SecretName } from '../../keys/secrets-schema.ts'
import { dockerCliNameProblem, readByDockerCli } from './docker-cli-env.ts'
import { DEFAULT_ALLOWED_HOSTS, ExecLimitsInput } from '../exec/exec-schema.ts'
import { CommandPolicy } from '../policy/policy-schema.ts'
import {
  Lifecycle,
  PackageManager,
  referencedSecrets,
  Scripts,
  Setup,
  Skill,
  Source,
} from './definition-parts.ts'

export const MAX_DEFINITION_BYTES = 64 * 1024
export const ENVIRONMENTS_FOLDER = 'environments'

export const EnvironmentName = z
  .string({ error: 'must be a string' })
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, {
    error: 'must be a slug of 1–63 lowercase letters, digits and dashes, not starting with a dash',
  })
  .describe('Name of the environment in its scope, e.g. "scratch"; also its file environments/<name>.md')

// Hosts that would reach this server's own services (its database, the app itself), the
// intranet or a cloud's metadata service are refused, in any spelling of their address.
const Host = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/, {
    error: 'must be a host name like "api.github.com" or "*.github.com"',
  })
  .refine((host) => !namesInside(host), {
    error:
      'must not be this machine or an inside address (localhost, 127.x, 10.x, 172.16–31.x, 192.168.x, 169.254.x, this server’s own addresses): name a public host',
  })

/** `local`, or `machine:<id>` with a machine id as the client registers it (server/machines). */
const PROVIDER = /^(local|docker|machine:[A-Za-z0-9][A-Za-z0-9_.-]{0,62})$/

export const EnvironmentPolicy = CommandPolicy.extend({
  network: z
    .strictObject({ allow: z.array(Host).max(100).default(DEFAULT_ALLOWED_HOSTS) })
    .default({ allow: DEFAULT_ALLOWED_HOSTS })
    .describe('Hosts commands may reach (default: the npm and PyPI registries); [] for none'),
})
export type EnvironmentPolicy = z.infer<typeof EnvironmentPolicy>

const nullAsMissing = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === null ? undefined : value), schema)

export const EnvironmentDefinition = z
  .strictObject({
    provider: nullAsMissing(
      z
        .string({ error: 'must be "local", "docker" or "machine:<id>"' })
        .regex(PROVIDER, {
          error:
            'must be "local", "docker" or "machine:<id>" (the id of a machine connected under Settings → Machines)',
        })
        .default('local')
        .describe(
          'Where its commands and files live: this server (local), a container on this server (docker) or a connected machine',
        ),
    ),
    policy: nullAsMissing(EnvironmentPolicy.default(EnvironmentPolicy.parse({}))),
    secrets: nullAsMissing(
      z.array(SecretName).max(50).default([]).describe('Names of stored secrets injected into commands'),
    ),
    limits: nullAsMissing(ExecLimitsInput.default({})),
    source: nullAsMissing(Source),
    packageManager: nullAsMissing(PackageManager),
    setup: nullAsMissing(Setup),
    scripts: nullAsMissing(Scripts),
    skills: nullAsMissing(z.array(Skill).max(50).default([])),
    lifecycle: nullAsMissing(Lifecycle),
    instructions: z.string().max(MAX_DEFINITION_BYTES).describe('The body: what the agent should know here'),
  })
  .superRefine((def, ctx) => {
    if (def.provider === 'docker') {
      def.secrets.forEach((name, i) => {
        if (readByDockerCli(name))
          ctx.addIssue({ code: 'custom', path: ['secrets', i], message: dockerCliNameProblem(name) })
      })
    }
    for (const ref of referencedSecrets(def)) {
      if (!def.secrets.includes(ref.name)) {
        ctx.addIssue({
          code: 'custom',
          path: ref.path.split('.'),
          message: `${ref.name} must also be listed in secrets`,
        })
      }
    }
  })
export type EnvironmentDefinition = z.infer<typeof EnvironmentDefinition>

/** Parses a definition file. @throws HttpError 400 naming the field and its line, 413 when too big. */
export function parseEnvironmentFile(text: string): EnvironmentDefinition {
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > MAX_DEFINITION_BYTES) throw payloadTooLarge(`The file is ${bytes} bytes; the limit is 64 KiB`)
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  let data: Record<string, unknown> = {}
  let body = text
  if (/^---./.test((lines[0] ?? '').trimEnd())) {
    throw badRequest('Line 1: the frontmatter must be YAML, opened by a line with just ---', 'frontmatter')
  }
  if ((lines[0] ?? '').trimEnd() === '---') {
    if (!lines.slice(1).some((line) => line.trimEnd() === '---')) {
      throw badRequest('The frontmatter is not closed: add a line with just --- after it', 'frontmatter')
    }
    let file: ReturnType<typeof parseFrontmatter>
    try {
      file = parseFrontmatter(text)
    } catch (err) {
      if (err instanceof HttpError) throw err // an anchor, refused by parseFrontmatter
      const mark = (err as { mark?: { line?: number }; reason?: string }).mark
      const where = typeof mark?.line === 'number' ? `Line ${mark.line + 1}: ` : ''
      throw badRequest(
        `${where}invalid YAML: ${(err as { reason?: string }).reason ?? 'syntax error'}`,
        'frontmatter',
      )
    }
    if (file.data === null || typeof file.data !== 'object' || Array.isArray(file.data)) {
      throw badRequest('The frontmatter must be a mapping of keys to values', 'frontmatter')
    }
    data = file.data
    body = file.content
  }
  if ('instructions' in data)
    throw badRequest('instructions: write them below the frontmatter', 'instructions')
  try {
    return parseInput(EnvironmentDefinition, { ...data, instructions: body.trim() })
  } catch (err) {
    if (!(err instanceof HttpError) || !err.field) throw err
    // Each bad field gets its own line, so the editor can mark every one (not the first's line
    // in front of all their messages).
    const problems = err.fields ?? [{ field: err.field, message: err.message }]
    throw badFields(
      problems.map(({ field, message }) => {
        const line = field ? lineOf(lines, field.split('.')) : undefined
        return { field, message: line ? `Line ${line}: ${message}` : message }
      }),
    )
  }
}

/** The line (1-based) where a nested key is written, following the path through indentation. */
function lineOf(lines: string[], path: string[]): number | undefined {
  let from = 0
  let indent = -1
  let found: number | undefined
  for (const key of path) {
    if (/^\d+$/.test(key)) {
      // A block list item ("- …" under the parent); a flow list [a, b] keeps the parent's line.
      const item = nthItem(lines, from, indent, Number(key))
      if (item === undefined) continue
      found = item + 1
      from = item
      indent = /^\s*/.exec(lines[item]!)![0].length - 1 // the item's own keys sit right after "- "
      continue
    }
    const index = lines.findIndex((line, i) => {
      if (i < from) return false
      const match = /^(\s*)(?:-\s+)?([A-Za-z0-9_]+)\s*:/.exec(line)
      return Boolean(match && match[2] === key && match[1]!.length > indent)
    })
    if (index < 0) break
    found = index + 1
    from = index + 1
    indent = /^\s*/.exec(lines[index]!)![0].length
  }
  return found
}

/** The index of the n-th "- " item of the block list starting at `from`, deeper than `indent`. */
function nthItem(lines: string[], from: number, indent: number, n: number): number | undefined {
  let itemIndent: number | undefined
  let seen = -1
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!
    if (line.trim() === '' || line.trim().startsWith('#')) continue
    const depth = /^\s*/.exec(line)![0].length
    if (depth <= indent && itemIndent === undefined) return undefined
    if (itemIndent !== undefined && depth < itemIndent) return undefined
    if (!/^\s*-(\s|$)/.test(line)) {
      if (itemIndent === undefined) return undefined
      continue
    }
    itemIndent ??= depth
    if (depth === itemIndent && ++seen === n) return i
  }
  return undefined
}

/** The file a new environment starts from ("+ Environment"). */
export function environmentTemplate(name: string): string {
  return [
    '---',
    'provider: local',
    'policy:',
    '  commands:',
    '    allow: []',
    '    ask: ["git push *"]',
    '    deny: []',
    '  default: allow',
    '  network:',
    `    allow: [${DEFAULT_ALLOWED_HOSTS.map((h) => JSON.stringify(h)).join(', ')}]`,
    'secrets: []',
    'limits:',
    '  timeoutSeconds: 120',
    '  diskMb: 1024',
    '---',
    '',
    `# ${name}`,
    '',
    'What this environment is for, and what the agent should know when it works here.',
    '',
  ].join('\n')
}
