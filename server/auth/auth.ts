/**
 * better-auth, mounted at /_agent-native/auth/*: email + password accounts and the
 * organization plugin (owner/admin/member). Every new user gets a workspace of their
 * own, made in the first session's hook, and every session starts in one of the
 * user's organisations.
 */
// better-auth's minimal entry and the organization plugin's own path: the main entry also loads
// Kysely for a direct database connection this server never makes, and the plugins index every
// plugin. Every server process (each integration test file's among them) loaded 812 files for
// better-auth, now 440.
import { betterAuth } from 'better-auth/minimal'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api'
import { organization } from 'better-auth/plugins/organization'
import { getDb } from '../db/client.ts'
import { whileLocked } from '../db/lock.ts'
import * as schema from '../db/schema/index.ts'
import { env } from '../env.ts'
import { logger } from '../lib/logger.ts'
import { singleton } from '../lib/singleton.ts'
import {
  checkInvitationStillBacked,
  checkMayCancelInvitation,
  checkMayCreateOrganization,
  checkMayDeleteOrganization,
  checkMaySetActiveOrganization,
  beforeOrganizationDeleted,
  onOrganizationDeleted,
  checkSignUpAllowed,
  onCredentialsRecovered,
  onMemberRemoved,
  onMemberRoleChanged,
  organizationForNewSession,
} from '../accounts/service.ts'
import { HttpError, toErrorBody } from '../lib/errors.ts'
import { resolveAuthSecret } from './secret.ts'
import { checkMemberFields, checkOrganizationFields, checkUserFields } from './user-fields.ts'
import { checkInvitationPace, INVITATION_EXPIRES_IN_SECONDS } from '../accounts/invitation-pace.ts'
import { authMail, sendInvitationMail } from './mail.ts'
import { checkNotOpenedByResetLink } from './admin-set-passwords.ts'
import { checkResetLinkStillFits, voidOutgrownResetLinks } from './reset-link-fit.ts'

const AUTH_BASE_PATH = '/_agent-native/auth'
/** Header the server entry sets from the socket (or trusted proxy) address. */
export const CLIENT_IP_HEADER = 'x-clockwork-client-ip'

/**
 * Whether credentials are limited per client address: sign-in and sign-up here, refused access
 * tokens at the MCP endpoint (tokens/guess-limit.ts). `AUTH_RATE_LIMIT`; on in production.
 */
export function authRateLimited(config = env()): boolean {
  return config.AUTH_RATE_LIMIT ?? config.NODE_ENV === 'production'
}

export function appUrl(): string {
  const config = env()
  return config.APP_URL ?? `http://localhost:${config.PORT}`
}

/** The origins the app's own pages are served from: state changes must come from one of them. */
export function trustedOrigins(): string[] {
  const base = new URL(appUrl())
  // localhost and 127.0.0.1 are different origins to a browser; accept both locally.
  const localTwin =
    base.hostname === 'localhost' ? '127.0.0.1' : base.hostname === '127.0.0.1' ? 'localhost' : null
  const origins = [base.origin]
  if (localTwin) origins.push(`${base.protocol}//${localTwin}${base.port ? `:${base.port}` : ''}`)
  return origins
}

function createAuth() {
  const config = env()
  const base = new URL(appUrl())

  return betterAuth({
    appName: 'Clockwork',
    baseURL: base.origin,
    basePath: AUTH_BASE_PATH,
    secret: resolveAuthSecret(),
    trustedOrigins: trustedOrigins(),
    telemetry: { enabled: false },
    // One structured log for the whole server, instead of better-auth's coloured console lines.
    logger: { log: (level, message) => logger[level === 'debug' ? 'debug' : level]({ auth: true }, message) },
    database: drizzleAdapter(getDb(), { provider: 'pg', schema }),
    // With SMTP_URL: password reset and email verification by mail (server/auth/mail.ts); without, neither.
    ...authMail(),
    user: {
      additionalFields: { timezone: { type: 'string', required: false, input: true } },
    },
    rateLimit: {
      enabled: authRateLimited(config),
      window: 60,
      max: 100,
      // In the database, so a limit holds across every instance (in memory, each would count alone).
      storage: 'database',
      customRules: {
        '/sign-in/email': { window: 10, max: 5 },
        '/sign-up/email': { window: 60, max: 10 },
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: base.protocol === 'https:',
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const orgFields = organizationFieldsIn(ctx.path, ctx.body)
        if (orgFields) {
          const invalid = checkOrganizationFields(orgFields)
          if (invalid) return refusal(invalid)
          if (ctx.path !== '/organization/create') return
          // Signed out: the endpoint itself answers 401.
          const session = await getSessionFromCtx(ctx)
          if (!session) return
          return refusedBy(() => checkMayCreateOrganization(session.user.id))
        }
        if (ctx.path === '/organization/delete') return refuseDeletingOnlyOrganization(ctx)
        if (ctx.path === '/organization/set-active') return refuseSettingActiveElsewhere(ctx)
        if (ctx.path === '/organization/invite-member' || ctx.path === '/organization/update-member-role') {
          const { email, role } = (ctx.body ?? {}) as { email?: unknown; role?: unknown }
          const invalid = checkMemberFields({ email, role })
          if (invalid) return refusal(invalid)
        }
        // Invitations over HTTP; the members page's own path checks before it calls better-auth.
        if (ctx.path === '/organization/invite-member' && ctx.request)
          return paceInvitation(ctx.body, (await getSessionFromCtx(ctx))?.session)
        // An admin's link opens only what its maker administers now, not only when it was made.
        if (ctx.path === '/reset-password')
          return refusedBy(() => checkResetLinkStillFits(resetTokenIn(ctx.body, ctx.query)))
        if (ctx.path !== '/sign-up/email' && ctx.path !== '/update-user') return
        const body = (ctx.body ?? {}) as Record<string, unknown>
        const invalid = checkUserFields(body)
        if (invalid) return refusal(invalid)
        if (ctx.path === '/sign-up/email')
          return refusedBy(() => checkSignUpAllowed(body.email, config.SIGNUP))
      }),
      // better-auth's organization plugin has a hook for removal but none for leaving; both must
      // pause the departed creator's jobs, so leaving is caught here, after it succeeded. A
      // password change that signs out every other session ends the person's access tokens too.
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/change-password') {
          const changed = ctx.context.returned as { user?: { id?: unknown } } | undefined
          const body = (ctx.body ?? {}) as { revokeOtherSessions?: unknown }
          if (body.revokeOtherSessions === true && typeof changed?.user?.id === 'string') {
            await onCredentialsRecovered(changed.user.id)
          }
          return
        }
        if (ctx.path !== '/organization/leave') return
        const left = ctx.context.returned as { organizationId?: unknown; userId?: unknown } | undefined
        if (typeof left?.organizationId === 'string' && typeof left.userId === 'string') {
          await onMemberRemoved(left.organizationId, left.userId)
        }
      }),
    },
    databaseHooks: {
      // The same checks for any other path that writes a user (a backstop; the hook above answers
      // the HTTP calls in our error shape).
      user: {
        create: { before: async (data) => void rejectInvalidUser(data) },
        update: { before: async (data) => void rejectInvalidUser(data) },
      },
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
        invitationExpiresIn: INVITATION_EXPIRES_IN_SECONDS,
        // The members page always shows a copyable link; with SMTP_URL the invitation is mailed too.
        sendInvitationEmail: (data) => sendInvitationMail(data),
        organizationHooks: {
          afterRemoveMember: async ({ member }) => onMemberRemoved(member.organizationId, member.userId),
          afterUpdateMemberRole: async ({ member, previousRole }) =>
            onMemberRoleChanged(member.organizationId, member.userId, member.role, previousRole),
          // An invitation carries its inviter's authority: one whose inviter left or was demoted is void.
          // An account whose password an admin set answers only what that admin could invite it to.
          beforeAcceptInvitation: async ({ invitation, user }) =>
            asAuthError(async () => {
              await checkInvitationStillBacked(invitation)
              await checkNotOpenedByResetLink(user.id, invitation)
            }),
          // Someone joined: admin links that now open more than their makers administer are void.
          afterAcceptInvitation: async ({ organization }) => voidOutgrownResetLinks(organization.id),
          beforeRejectInvitation: async ({ invitation, user }) =>
            asAuthError(() => checkNotOpenedByResetLink(user.id, invitation, 'decline')),
          // Only who could send an invitation cancels it: an admin no owner invitation (decision 0507).
          beforeCancelInvitation: async ({ invitation, cancelledBy }) =>
            asAuthError(() => checkMayCancelInvitation(invitation, cancelledBy.id)),
          // Backstops for any path that writes an organisation (the hook above answers the HTTP calls).
          beforeCreateOrganization: async ({ organization }) => rejectInvalidOrganization(organization),
          beforeUpdateOrganization: async ({ organization }) => rejectInvalidOrganization(organization),
          // What an organisation holds outside its rows is cleaned up, and its delete counted (0521).
          beforeDeleteOrganization: async ({ organization, user }) =>
            asAuthError(() => beforeOrganizationDeleted(organization.id, user.id)),
          afterDeleteOrganization: async ({ organization }) => onOrganizationDeleted(organization.id),
        },
      }),
    ],
  })
}

/** The invitation's organisation and address, paced (decision 0489); signed out, the endpoint answers. */
function paceInvitation(body: unknown, session: Record<string, unknown> | undefined) {
  const { email, organizationId } = (body ?? {}) as { email?: unknown; organizationId?: unknown }
  const orgId = typeof organizationId === 'string' ? organizationId : session?.activeOrganizationId
  if (!session || typeof orgId !== 'string' || typeof email !== 'string') return undefined
  return refusedBy(() => checkInvitationPace(orgId, email))
}

/** A person's delete of their only organisation, answered 409 in our shape; signed out, the endpoint answers. */
async function refuseDeletingOnlyOrganization(ctx: Parameters<typeof getSessionFromCtx>[0]) {
  const { organizationId } = (ctx.body ?? {}) as { organizationId?: unknown }
  const session = await getSessionFromCtx(ctx)
  if (!session || typeof organizationId !== 'string') return undefined
  return refusedBy(() => checkMayDeleteOrganization(organizationId, session.user.id))
}

/**
 * A session moved to an organisation its person is not in, or to none, answered in our shape before
 * better-auth runs: it refuses the first too, but clears the session's organisation as it does
 * (decision 0532). Signed out, the endpoint answers.
 */
async function refuseSettingActiveElsewhere(ctx: Parameters<typeof getSessionFromCtx>[0]) {
  const session = await getSessionFromCtx(ctx)
  if (!session) return undefined
  const body = (ctx.body ?? {}) as { organizationId?: unknown; organizationSlug?: unknown }
  return refusedBy(() =>
    checkMaySetActiveOrganization(session.user.id, body, session.session.activeOrganizationId),
  )
}

/** An organisation hook's check: its HttpError becomes better-auth's, with the same status and words. */
async function asAuthError(check: () => Promise<void>): Promise<void> {
  try {
    await check()
  } catch (err) {
    if (err instanceof HttpError)
      throw new APIError(err.status === 403 ? 'FORBIDDEN' : 'BAD_REQUEST', { message: err.message })
    throw err
  }
}

/** A before-hook's check: its HttpError becomes the answer (in our shape); passing, the endpoint runs. */
async function refusedBy(check: () => Promise<void>): Promise<Response | undefined> {
  try {
    await check()
    return undefined
  } catch (err) {
    if (err instanceof HttpError) return refusal(err)
    throw err
  }
}

/** A 4xx in the one error shape, answered by a before-hook instead of the endpoint. */
function refusal(err: HttpError): Response {
  return new Response(JSON.stringify(toErrorBody(err)), {
    status: err.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  })
}

/** The token a `/reset-password` call carries, as better-auth reads it (body first, then query). */
function resetTokenIn(body: unknown, query: unknown): unknown {
  const fromBody = (body ?? {}) as { token?: unknown }
  return fromBody.token || ((query ?? {}) as { token?: unknown }).token
}

/**
 * The organisation fields a create or update call carries (null for other paths); a create always
 * has a name, so a missing one is checked as empty.
 */
type OrganizationFields = { name?: unknown; slug?: unknown; logo?: unknown; metadata?: unknown }

function organizationFieldsIn(path: string, body: unknown): OrganizationFields | null {
  const fields = (body ?? {}) as OrganizationFields & { data?: unknown }
  if (path === '/organization/create')
    return { name: fields.name ?? '', slug: fields.slug, logo: fields.logo, metadata: fields.metadata }
  if (path !== '/organization/update') return null
  const data = (fields.data ?? {}) as OrganizationFields
  return { name: data.name, slug: data.slug, logo: data.logo, metadata: data.metadata }
}

async function rejectInvalidOrganization(fields: OrganizationFields) {
  const invalid = checkOrganizationFields(fields)
  if (invalid) throw new APIError('BAD_REQUEST', { message: invalid.message, code: invalid.code })
}

function rejectInvalidUser(data: { name?: unknown; email?: unknown; image?: unknown; timezone?: unknown }) {
  const invalid = checkUserFields(data)
  if (invalid) throw new APIError('BAD_REQUEST', { message: invalid.message, code: invalid.code })
}

export type Auth = ReturnType<typeof createAuth>

/** The process-wide auth instance (created after the database is opened). */
export function getAuth(): Auth {
  return singleton('auth', createAuth)
}

/**
 * The writes better-auth makes after our before-hook has counted what a limit bounds: an
 * organisation made (decision 0488) and an invitation made or mailed again (decision 0489). They
 * take turns under one lock, so requests sent at the same instant cannot each pass the same count.
 */
const COUNTED_WRITES = new Set(['/organization/create', '/organization/invite-member'])

/** The lock those writes take turns under; the members page's invite takes it too. */
export const COUNTED_WRITES_LOCK = 'auth:counted-writes'

/** Answers a request under /_agent-native/auth/*, the counted writes one at a time. */
export function handleAuthRequest(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname.slice(AUTH_BASE_PATH.length)
  if (request.method !== 'POST' || !COUNTED_WRITES.has(path)) return getAuth().handler(request)
  return whileLocked(COUNTED_WRITES_LOCK, () => getAuth().handler(request))
}
