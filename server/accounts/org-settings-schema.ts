/**
 * Per-organisation settings: one zod schema, extended by each feature that needs an org switch.
 * Stored as jsonb in `org_settings`; keys missing from a stored row take their defaults, so a new
 * setting needs no migration.
 */
import { z } from 'zod'
import { ExecLimitsInput } from '../lib/exec-limits.ts'

/** Runtimes an org can allow or refuse for environment commands (server/environments/definition/org-policy.ts). */
export const EXEC_RUNTIMES = ['node', 'python'] as const
export type ExecRuntime = (typeof EXEC_RUNTIMES)[number]

export const OrgSettings = z.object({
  runCode: z
    .boolean()
    .default(true)
    .describe('Let the agent run JavaScript in the sandbox (the run-code tool), in chat and job runs'),
  cli: z
    .boolean()
    .default(true)
    .describe('Let the agent call the command-line tools this server offers (the cli tool)'),
  monthlyBudgetUsd: z
    .number({ error: 'must be an amount in US dollars, like 50, or null for no budget' })
    .positive({ error: 'must be more than 0 (null: no budget)' })
    .max(10_000_000, { error: 'must be at most 10000000' })
    .nullable()
    .default(null)
    .describe(
      "What runs on the organisation's model key may cost per calendar month (UTC), in US dollars; once reached, those runs are skipped until an admin raises it. null: no budget",
    ),
  webFetch: z
    .boolean()
    .default(true)
    .describe('Let the agent read public web pages (the web_fetch tool), in chat and job runs'),
  exec: z
    .boolean()
    .default(true)
    .describe('Let the agent and people run commands in environments (run_command, the command box)'),
  execRuntimes: z
    .array(z.enum(EXEC_RUNTIMES))
    .max(EXEC_RUNTIMES.length)
    .default([...EXEC_RUNTIMES])
    .describe('Runtimes commands may start (node: node/npm/npx; python: python/pip); others are denied'),
  execLimits: ExecLimitsInput.default({}).describe(
    'Ceilings of every command (timeoutSeconds, cpuSeconds, memoryMb, …): a definition asking more gets these; unset ones are the built-in defaults',
  ),
  execDeny: z
    .array(z.string().trim().min(1, 'a pattern must not be empty').max(500))
    .max(200)
    .default([])
    .describe('Command patterns denied in every environment of the organisation, e.g. "git push *"'),
})
export type OrgSettings = z.infer<typeof OrgSettings>

/** A PATCH: any subset of the settings; an unknown key is a 400 naming it. */
export const OrgSettingsPatch = z.strictObject(
  Object.fromEntries(
    Object.entries(OrgSettings.shape).map(([k, v]) => [
      k,
      (v as z.ZodDefault<z.ZodType>).unwrap().optional(),
    ]),
  ) as { [K in keyof OrgSettings]: z.ZodOptional<z.ZodType<OrgSettings[K]>> },
)
export type OrgSettingsPatch = z.infer<typeof OrgSettingsPatch>

export const DEFAULT_ORG_SETTINGS: OrgSettings = OrgSettings.parse({})
