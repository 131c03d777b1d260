/**
 * Every environment variable the server checks at start-up, parsed once. A bad value
 * stops the process with a message naming the variable (see `.env.example`). The few read
 * elsewhere (MIGRATIONS_DIR, a harness CLI's path, the docker CLI's own) are listed in
 * docs/configuration.md.
 */
import path from 'node:path'
import { z } from 'zod'

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

const EnvSchema = z.object({
  /** Read by server/lib/load-env.ts before anything else; listed here so it is documented and checked. */
  ENV_FILE: z.string().min(1).default('.env'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Public origin of the app (what the browser's address bar shows); used by auth and invite links. */
  APP_URL: z.url().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** Prepared statements on each connection; `false` behind a transaction-mode pooler (PgBouncer). */
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  PGLITE_DIR: z.string().min(1).default('.data/pglite'),
  ENVIRONMENTS_DIR: z.string().min(1).default('.data/environments'),
  ENVIRONMENT_SNAPSHOTS_DIR: z.string().min(1).default('.data/environment-snapshots'),
  ENVIRONMENT_LOCAL_ROOT: z.string().min(1).optional(),
  BETTER_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  TRUST_PROXY: z
    .string()
    .default('false')
    .refine((v) => /^(true|false|\d+|[\w.:/, -]+)$/.test(v), 'must be true, false, a hop count or addresses'),
  AUTH_RATE_LIMIT: bool.optional(),
  /** Who may create an account: anyone (`open`), or invited emails and the very first person. */
  SIGNUP: z.enum(['open', 'invite-only']).default('open'),
  /** Per organisation: jobs that may be enabled at once. */
  ORG_MAX_ENABLED_JOBS: z.coerce.number().int().min(1).max(1_000_000).default(200),
  /** Per organisation: jobs stored, paused ones included (decision 0452). */
  ORG_MAX_JOBS: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** Per organisation: workspace files stored, personal and shared together; job files are jobs (decision 0453). */
  ORG_MAX_WORKSPACE_FILES: z.coerce.number().int().min(1).max(1_000_000).default(5000),
  /** Per organisation: MiB the workspace files hold together, both scopes (decision 0499). */
  ORG_MAX_WORKSPACE_MB: z.coerce.number().int().min(1).max(1_048_576).default(256),
  /** Per organisation: runs per rolling 24 hours that may use the deployment's model key. */
  ORG_MAX_DEPLOYMENT_KEY_RUNS_PER_DAY: z.coerce.number().int().min(0).max(10_000_000).default(2000),
  /** Per organisation: chat turns per rolling 24 hours that may use the deployment's model key (decision 0454). */
  ORG_MAX_DEPLOYMENT_KEY_CHAT_TURNS_PER_DAY: z.coerce.number().int().min(0).max(10_000_000).default(500),
  /** Per run or chat turn on the deployment's model key: USD it may spend, whatever its job's cap (decisions 0447, 0454). */
  DEPLOYMENT_KEY_MAX_RUN_COST_USD: z.coerce.number().positive().max(10_000).default(1),
  /** Every organisation together: USD runs and chat turns may spend on the deployment's key in 24 hours (decision 0455). */
  DEPLOYMENT_KEY_MAX_USD_PER_DAY: z.coerce.number().positive().max(10_000_000).default(50),
  /** Per account: connected machines (Settings → Machines) one person may have; a further one is refused. */
  USER_MAX_MACHINES: z.coerce.number().int().min(1).max(10_000).default(10),
  /**
   * Per person, on each instance: commands running at once in environments; more wait their turn
   * (four times as many may wait, then 429).
   */
  USER_MAX_RUNNING_COMMANDS: z.coerce.number().int().min(1).max(10_000).default(8),
  /**
   * Per organisation, on each instance: commands running at once in environments, all its members'
   * together (harness runs count one each); more wait their turn (four times as many, then 429).
   */
  ORG_MAX_RUNNING_COMMANDS: z.coerce.number().int().min(1).max(10_000).default(32),
  /** Per person, in every organisation together: chat threads stored; a new chat past it is refused (decision 0485). */
  USER_MAX_CHAT_THREADS: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** Per organisation: invitations made in a day, cancelled ones included (decision 0489). */
  ORG_MAX_INVITATIONS_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(50),
  /** Per person: organisations they own; making one more is refused (decision 0488). */
  USER_MAX_ORGANIZATIONS: z.coerce.number().int().min(1).max(10_000).default(20),
  /**
   * Every environment on this deployment, whatever its organisation's settings say (decision 0482):
   * the memory, disk and processes one may have. An organisation's owner is anyone who signed up.
   */
  ENVIRONMENT_MAX_MEMORY_MB: z.coerce.number().int().min(256).max(16384).default(2048),
  ENVIRONMENT_MAX_DISK_MB: z.coerce.number().int().min(1).max(102400).default(1024),
  ENVIRONMENT_MAX_PROCESSES: z.coerce.number().int().min(8).max(4096).default(256),
  /** Per organisation: the disk its environments' folders hold together on this deployment (decision 0491). */
  ORG_MAX_DISK_MB: z.coerce.number().int().min(1).max(10_485_760).default(10240),
  /** Per access token: MCP requests a minute (`/_agent-native/mcp`); past it the endpoint answers 429. */
  MCP_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /** Where other instances reach this one (they forward calls for the machines connected here). */
  INSTANCE_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The rendered-page and jobs-API cache (server/http/page-cache.ts); `false` renders every request. */
  PAGE_CACHE: bool.default(true),
  SCHEDULER_ENABLED: bool.default(true),
  SCHEDULER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  /**
   * Runs of one organisation executing at once on an instance (its share of SCHEDULER_CONCURRENCY);
   * unset: half of it. Open sign-up makes every organisation a potential attacker.
   */
  SCHEDULER_ORG_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(25),
  RUN_HISTORY_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** How long audit trails (environments' commands, skills, jobs, members) are kept (decision 0493). */
  AUDIT_HISTORY_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
  /** Per person: MiB their commands, file writes, harness tool calls, job changes and started runs may add to the history a day (decisions 0500, 0503). */
  USER_MAX_AUDIT_MB_PER_DAY: z.coerce.number().int().min(1).max(1_048_576).default(256),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: z
    .url()
    .regex(/\/v1\/?$/, 'must end in /v1 (the provider appends /messages)')
    .optional(),
  OPENAI_COMPATIBLE_BASE_URL: z.url().optional(),
  OPENAI_COMPATIBLE_API_KEY: z.string().min(1).optional(),
  AGENT_MODEL: z
    .string()
    .regex(/^(anthropic|openai-compatible):.+$/, 'must look like anthropic:MODEL or openai-compatible:MODEL')
    .default('anthropic:claude-sonnet-5-5'),
  /** Where agent code runs (see docs/agent.md, "Picking an adapter"); an unknown value stops start-up. */
  AGENT_NATIVE_SANDBOX: z.enum(['local', 'docker'], { error: 'must be local or docker' }).default('local'),
  SANDBOX_DOCKER_IMAGE: z.string().min(1).default('node:22-slim'),
  /** Hosts agent code may reach through providerFetch, comma separated (`api.example.com,*.example.org`). */
  SANDBOX_FETCH_ALLOW: z
    .string()
    .default('')
    .refine((v) => /^[\w.*,\s-]*$/.test(v), 'must be host names separated by commas'),
  /** Outgoing mail (run results, alerts, invitations, password resets): `smtp://user:pass@host:587`, `smtps://…`. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  /** The From address of Clockwork's mail. */
  SMTP_FROM: z.string().min(3).default('Clockwork <clockwork@localhost>'),
  /**
   * Internal hosts (`host` or `host:port`, comma separated) where admin-registered MCP servers,
   * webhook and Slack endpoints may live although they resolve to private or loopback addresses;
   * never widens web_fetch or the model provider's fetch.
   */
  INTEGRATIONS_ALLOW_HOSTS: z
    .string()
    .default('')
    .refine((v) => /^[\w.:[\],\s-]*$/.test(v), 'must be host or host:port entries separated by commas'),
})

export type Env = z.infer<typeof EnvSchema>

/**
 * Variables only required in some configurations. Checked on the raw values, beside the schema,
 * so one run reports every problem (zod skips refinements while any field is invalid).
 */
function missingTogether(source: Record<string, string | undefined>): string[] {
  const problems: string[] = []
  if (source.NODE_ENV === 'production' && !source.BETTER_AUTH_SECRET) {
    problems.push(
      'BETTER_AUTH_SECRET: required in production (32+ characters, e.g. `openssl rand -base64 32`)',
    )
  }
  if (source.AGENT_MODEL?.startsWith('openai-compatible:') && !source.OPENAI_COMPATIBLE_BASE_URL) {
    problems.push(`OPENAI_COMPATIBLE_BASE_URL: required when AGENT_MODEL is ${source.AGENT_MODEL}`)
  }
  return problems
}

/** A bad environment: one readable line per problem, each naming its variable. */
export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  ${p}`).join('\n')}`)
    this.name = 'EnvError'
  }
}

/** Parses an environment; throws an EnvError listing every bad variable by name. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings mean "unset", as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''))
  const result = EnvSchema.safeParse(cleaned)
  const problems = [
    ...(result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? []),
    ...missingTogether(cleaned),
  ]
  if (result.success && problems.length === 0) return result.data
  throw new EnvError(problems)
}

/** Which env file the server entry reads: ENV_FILE (`off` for none), else `.env` in the working directory. */
export function envFilePath(source: Record<string, string | undefined> = process.env): string | null {
  const chosen = source.ENV_FILE || '.env'
  return chosen === 'off' ? null : path.resolve(chosen)
}

let cached: Env | undefined

/** The process environment, parsed on first use. */
export function env(): Env {
  cached ??= parseEnv(process.env)
  return cached
}

/** Forgets the parsed environment (tests change process.env between set-ups). */
export function resetEnvCache(): void {
  cached = undefined
}

/** The public Messages API, when ANTHROPIC_BASE_URL does not point elsewhere. */
const ANTHROPIC_API = 'https://api.anthropic.com/v1'

/** Where Anthropic calls go: ANTHROPIC_BASE_URL or the public API, ending in `/v1`. */
export const anthropicBaseUrl = (config: Env = env()): string => config.ANTHROPIC_BASE_URL ?? ANTHROPIC_API
