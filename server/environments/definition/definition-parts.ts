/**
 * The parts of an environment definition that say how its working tree is made (issue 13):
 * `source`, `packageManager`, `setup`, `scripts`, `skills` and `lifecycle`. definition.ts composes
 * them into the one schema; the bootstrap (bootstrap.ts) and the lifecycle (lifecycle.ts) use them.
 */
import { z } from 'zod'
import { SkillName } from '../../jobs/field-schemas.ts'
import { SecretName } from '../../keys/secrets-schema.ts'

const LOCAL_HOST = /^(localhost|.*\.localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[?::1?\]?|169\.254\.\d+\.\d+)$/i

/**
 * A git URL: https (a public host, no credentials: authentication comes from a named secret) or
 * file:// (only under ENVIRONMENT_LOCAL_ROOT, checked at use time like `local` sources).
 */
export const GitUrl = z
  .string({ error: 'must be a URL' })
  .max(2048, 'must be at most 2,048 characters')
  .superRefine((value, ctx) => {
    let url: URL
    try {
      url = new URL(value)
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an https:// (or file://) URL' })
      return
    }
    if (url.protocol !== 'https:' && url.protocol !== 'file:') {
      ctx.addIssue({ code: 'custom', message: 'must be an https:// (or file://) URL' })
    } else if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'must carry no credentials: name a secret instead' })
    } else if (url.protocol === 'https:' && LOCAL_HOST.test(url.hostname)) {
      ctx.addIssue({ code: 'custom', message: 'must not be this machine (localhost, 127.x, ::1)' })
    }
  })

const GitRef = z
  .string()
  .regex(/^[A-Za-z0-9._/-]{1,200}$/, { error: 'must be a branch or tag name' })
  .refine((ref) => !ref.startsWith('-') && !ref.includes('..'), { error: 'must be a branch or tag name' })

export const Source = z
  .discriminatedUnion(
    'type',
    [
      z.strictObject({ type: z.literal('none') }),
      z.strictObject({
        type: z.literal('git'),
        url: GitUrl,
        ref: GitRef.optional().describe('Branch or tag; default: the remote default branch'),
        depth: z
          .union([z.number().int().min(1).max(1_000_000), z.literal('full')], {
            error: 'must be a whole number of commits or "full"',
          })
          .default(1)
          .describe('Commits to fetch (default 1, a shallow single-branch clone) or "full"'),
        secret: SecretName.optional().describe('A secret holding a token for https authentication'),
      }),
      z.strictObject({
        type: z.literal('local'),
        path: z
          .string()
          .min(1)
          .max(1024)
          .refine((p) => p.startsWith('/'), { error: 'must be an absolute path' }),
      }),
    ],
    { error: 'type must be none, git or local' },
  )
  .default({ type: 'none' })
export type Source = z.infer<typeof Source>

export const PackageManager = z
  .enum(['auto', 'npm', 'pnpm', 'yarn', 'bun'], { error: 'must be auto, npm, pnpm, yarn or bun' })
  .default('auto')

const Command = z
  .string({ error: 'must be a command line' })
  .trim()
  .min(1, 'must be a command line')
  .max(4096, 'must be at most 4,096 characters')
export const SetupStep = z.union([Command, z.array(Command).min(1).max(16)], {
  error: 'must be a command line or a list of command lines run in parallel',
})
export const Setup = z.array(SetupStep).max(50).default([])
export type Setup = z.infer<typeof Setup>

const ScriptName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9:_.-]{0,62}$/, { error: 'must be a name like "test" or "lint:fix"' })
export const Scripts = z
  .record(ScriptName, Command)
  .refine((scripts) => Object.keys(scripts).length <= 50, { error: 'at most 50 scripts' })
  .default({})

const RelativePath = z
  .string()
  .min(1)
  .max(512)
  .refine((p) => !p.startsWith('/') && !p.split('/').includes('..') && !p.includes('\0'), {
    error: 'must be a relative path inside the environment',
  })

// One spelling of a skill's name for definitions and jobs (a job's `skills` field names the same skills).
export { SkillName }

/** A header value: literal text, or a secret's value (bare or as a bearer token). */
const HeaderValue = z.union(
  [z.string().max(4096), z.strictObject({ bearer: SecretName }), z.strictObject({ secret: SecretName })],
  { error: 'must be text, {bearer: SECRET} or {secret: SECRET}' },
)

export const Skill = z.union(
  [
    SkillName.describe('An approved self-made skill, by name'),
    z.strictObject({
      kind: z.literal('file'),
      path: RelativePath,
      content: z.string().max(64 * 1024),
    }),
    z.strictObject({
      kind: z.literal('git'),
      repo: z
        .string()
        .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/)
        .or(GitUrl)
        .describe('owner/name on GitHub, or an https:// URL'),
      ref: GitRef.optional(),
      secret: SecretName.optional(),
    }),
    z.strictObject({
      kind: z.literal('mcp'),
      name: SkillName,
      config: z.strictObject({
        url: z.string().url({ error: 'must be a URL' }).max(2048),
        headers: z
          .record(z.string().min(1).max(200), HeaderValue)
          .refine((h) => Object.keys(h).length <= 20, { error: 'must have at most 20 headers' })
          .default({}),
      }),
    }),
  ],
  { error: 'must be a skill name or {kind: file|git|mcp, …}' },
)
export type Skill = z.infer<typeof Skill>

const AGE = /^(\d{1,6})(m|h|d)$/
export const Lifecycle = z
  .strictObject({
    snapshot: z
      .enum(['after-setup', 'none'], { error: 'must be "after-setup" or "none"' })
      .default('after-setup'),
    snapshotMaxAge: z.string().regex(AGE, { error: 'must be a duration like 30m, 24h or 7d' }).default('24h'),
  })
  .default({ snapshot: 'after-setup', snapshotMaxAge: '24h' })
export type Lifecycle = z.infer<typeof Lifecycle>

/** `snapshotMaxAge` in milliseconds. */
export function maxAgeMs(age: string): number {
  const match = AGE.exec(age)
  if (!match) return 24 * 3_600_000
  return Number(match[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd']
}

/** Every secret a definition's source and skills use (each must also be listed in `secrets`). */
export function referencedSecrets(def: {
  source: Source
  skills: Skill[]
}): { name: string; path: string }[] {
  const refs: { name: string; path: string }[] = []
  if (def.source.type === 'git' && def.source.secret)
    refs.push({ name: def.source.secret, path: 'source.secret' })
  def.skills.forEach((skill, i) => {
    if (typeof skill === 'string') return
    if (skill.kind === 'git' && skill.secret) refs.push({ name: skill.secret, path: `skills.${i}.secret` })
    if (skill.kind === 'mcp') {
      for (const [header, value] of Object.entries(skill.config.headers)) {
        if (typeof value === 'string') continue
        const name = 'bearer' in value ? value.bearer : value.secret
        refs.push({ name, path: `skills.${i}.config.headers.${header}` })
      }
    }
  })
  return refs
}
