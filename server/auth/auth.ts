/**
 * better-auth, mounted at /_agent-native/auth/*: email + password accounts and the
 * organization plugin (owner/admin/member). Every new user gets a workspace of their
 * own, made in the first session's hook, and every session starts in one of the
 * user's organisations.
 */
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { organization } from 'better-auth/plugins'
import { getDb } from '../db/client.ts'
import * as schema from '../db/schema/index.ts'
import { env } from '../env.ts'
import { logger } from '../lib/logger.ts'
import { singleton } from '../lib/singleton.ts'
import { onMemberRemoved, organizationForNewSession } from '../accounts/service.ts'
import { resolveAuthSecret } from './secret.ts'

const AUTH_BASE_PATH = '/_agent-native/auth'
/** Header the server entry sets from the socket (or trusted proxy) address. */
export const CLIENT_IP_HEADER = 'x-clockwork-client-ip'

export function appUrl(): string {
  const config = env()
  return config.APP_URL ?? `http://localhost:${config.PORT}`
}

function createAuth() {
  const config = env()
  const base = new URL(appUrl())
  // localhost and 127.0.0.1 are different origins to a browser; accept both locally.
  const localTwin =
    base.hostname === 'localhost' ? '127.0.0.1' : base.hostname === '127.0.0.1' ? 'localhost' : null
  const trustedOrigins = [base.origin]
  if (localTwin) trustedOrigins.push(`${base.protocol}//${localTwin}${base.port ? `:${base.port}` : ''}`)

  return betterAuth({
    appName: 'Clockwork',
    baseURL: base.origin,
    basePath: AUTH_BASE_PATH,
    secret: resolveAuthSecret(),
    trustedOrigins,
    telemetry: { enabled: false },
    // One structured log for the whole server, instead of better-auth's coloured console lines.
    logger: { log: (level, message) => logger[level === 'debug' ? 'debug' : level]({ auth: true }, message) },
    database: drizzleAdapter(getDb(), { provider: 'pg', schema }),
    emailAndPassword: { enabled: true, minPasswordLength: 8, autoSignIn: true },
    user: {
      additionalFields: { timezone: { type: 'string', required: false, input: true } },
    },
    rateLimit: {
      enabled: config.AUTH_RATE_LIMIT ?? config.NODE_ENV === 'production',
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/email': { window: 10, max: 5 },
        '/sign-up/email': { window: 60, max: 10 },
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: base.protocol === 'https:',
    },
    databaseHooks: {
      session: {
        create: {
          before: async (session) => {
            const orgId = await organizationForNewSession(session.userId)
            return { data: { ...session, activeOrganizationId: orgId } }
          },
        },
      },
    },
    plugins: [
      organization({
        creatorRole: 'owner',
        invitationExpiresIn: 7 * 24 * 3600,
        // No mail server is assumed: the members page shows a copyable link instead.
        sendInvitationEmail: async () => {},
        organizationHooks: {
          afterRemoveMember: async ({ member }) => onMemberRemoved(member.organizationId, member.userId),
        },
      }),
    ],
  })
}

export type Auth = ReturnType<typeof createAuth>

/** The process-wide auth instance (created after the database is opened). */
export function getAuth(): Auth {
  return singleton('auth', createAuth)
}
