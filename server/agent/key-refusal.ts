/**
 * A stored model key the provider refused (decision 0505). A 401 from the provider means the key
 * is not a key (mistyped, revoked, deleted), and every later call on it fails the same way, for
 * free, at the provider's rate limit. So the first 401 is written on the key, and no call is made
 * with it again until someone saves it again: chat and Run now say so before storing anything,
 * and a run fails with the same words without calling the model.
 *
 * Only a 401: a 403 can be about one model or one feature (Claude Code asks for a small model of
 * its own), and a 429, a 5xx or no answer are the provider's trouble, not the key's.
 */
import { raiseAlert } from '../integrations/alerts.ts'
import { HttpError } from '../lib/errors.ts'
import { logger } from '../lib/logger.ts'
import { refusalReason } from '../keys/refusal-reason.ts'
import { markModelKeyRefused, type StoredKeyRef } from '../keys/store.ts'
import { providerName, type ModelProvider } from '../keys/schema.ts'

/** A model call cannot start: the key it would spend was refused by the provider. */
export class ModelKeyRefusedError extends HttpError {
  constructor(message: string) {
    super(409, 'model_key_refused', message)
    this.name = 'ModelKeyRefusedError'
  }
}

/** What the person is told, naming whose key it is and where to save it again. */
export function describeRefusedKey(
  source: 'personal' | 'org',
  provider: ModelProvider,
  refused: { at: Date; reason: string },
): string {
  const name = providerName(provider)
  const when = refused.at.toISOString().slice(0, 16).replace('T', ' ')
  const said = refused.reason ? ` (${refused.reason})` : ''
  return source === 'personal'
    ? `Your ${name} key was refused by the provider at ${when} UTC${said}, so it is not used until ` +
        'you save it again in Settings → Models (or remove it to use the server’s key).'
    : `The organisation's ${name} key was refused by the provider at ${when} UTC${said}, so it is not ` +
        'used until an admin saves it again in Settings → Models.'
}

/** Whose call met the refusal, and where: who is told (decision 0505). */
export type RefusalNotice = {
  orgId: string
  /** The person calling (chat) or whose job runs; told, with the organisation's admins for its key. */
  userId: string
  source: 'personal' | 'org'
  provider: ModelProvider
}

/**
 * Tells the key's keepers once, in the app and by email when it is on: the person for their own
 * key; for the organisation's, its admins and owners (who can save it again) and whose job met it.
 */
async function announceRefusal(notice: RefusalNotice, reason: string): Promise<void> {
  const name = providerName(notice.provider)
  await raiseAlert({
    orgId: notice.orgId,
    jobId: null,
    createdBy: notice.userId,
    scope: notice.source === 'org' ? 'shared' : 'personal',
    kind: 'key_refused',
    title:
      notice.source === 'org' ? `The organisation's ${name} key was refused` : `Your ${name} key was refused`,
    body: describeRefusedKey(notice.source, notice.provider, { at: new Date(), reason }),
  })
}

/**
 * A `fetch` for calls made with the stored key `ref` (plain `key`): a 401 answer is recorded on
 * the key before the caller sees it, and announced to `notice`'s people the first time, without
 * the caller waiting for that; the answer itself is passed on unchanged. Later calls through the same fetch (a harness's CLI trying
 * again within its run) get that answer again without reaching the provider, as calls resolved
 * afresh are refused before they start.
 */
export function watchForRefusal(ref: StoredKeyRef, key: string, notice: RefusalNotice): typeof fetch {
  let refusal: { body: string; headers: Headers } | null = null
  return async (input, init) => {
    if (refusal) return new Response(refusal.body, { status: 401, headers: refusal.headers })
    const response = await fetch(input, init)
    if (response.status === 401) {
      const body = await response.clone().text()
      refusal = {
        body,
        headers: new Headers({ 'content-type': response.headers.get('content-type') ?? 'text/plain' }),
      }
      const reason = refusalReason(response.status, body, key)
      logger.warn(
        { keyId: ref.id, reason },
        'the provider refused a stored model key; it is paused until saved again',
      )
      const first = await markModelKeyRefused(ref, reason).catch((err: unknown) => {
        logger.error({ err, keyId: ref.id }, 'could not record that the provider refused a model key')
        return false
      })
      // Not awaited: with SMTP on, handing the mail over takes as long as the mail server does
      // (minutes, when it does not answer), and the call's own answer must not wait for it.
      if (first) {
        void announceRefusal(notice, reason).catch((err: unknown) =>
          logger.error({ err, keyId: ref.id }, 'could not announce that the provider refused a model key'),
        )
      }
    }
    return response
  }
}

/**
 * The deployment's key (ANTHROPIC_API_KEY, OPENAI_COMPATIBLE_API_KEY) as this process last heard
 * of it from the provider. Unlike a stored key it is not paused on a 401: nobody can save it again
 * from the app (it changes only with .env and a restart), so a pause would stop every organisation
 * on it until then, for a refusal that may pass. It is shown instead, on Settings → Models, and
 * logged once when it starts, beside each call's own failure; the next answer that is not a 401
 * clears it. Each instance knows what its own calls met. Keyed by provider and key, so a process
 * serving several configurations (the tests' apps) keeps them apart.
 */
const deploymentRefusals = new Map<string, { at: Date; reason: string }>()
const deploymentEntry = (provider: ModelProvider, key: string) => `${provider}\0${key}`

/** When the provider last refused the deployment's `key` for `provider`, and what it said; null since an answer that was not a 401. */
export const deploymentKeyRefusal = (provider: ModelProvider, key: string) =>
  deploymentRefusals.get(deploymentEntry(provider, key)) ?? null

/** A `fetch` for calls made with the deployment's key that keeps {@link deploymentKeyRefusal} current. */
export function watchDeploymentKey(provider: ModelProvider, key: string): typeof fetch {
  const entry = deploymentEntry(provider, key)
  return async (input, init) => {
    const response = await fetch(input, init)
    if (response.status !== 401) {
      if (response.ok) deploymentRefusals.delete(entry)
      return response
    }
    if (!deploymentRefusals.has(entry)) {
      const reason = refusalReason(response.status, await response.clone().text(), key)
      deploymentRefusals.set(entry, { at: new Date(), reason })
      logger.error(
        { provider, reason },
        "the provider refused the deployment's model key: every chat and run on it fails until it is replaced in .env",
      )
    }
    return response
  }
}
