/**
 * Inputs for stored model keys. A key is write-only: it goes in through {@link ModelKeyInput} and
 * only ever comes back out as a {@link ModelKeySummary} (•••• plus its last 4 characters).
 */
import { z } from 'zod'

export const MODEL_PROVIDERS = ['anthropic', 'openai-compatible'] as const

export const ModelProvider = z
  .enum(MODEL_PROVIDERS, { error: 'must be "anthropic" or "openai-compatible"' })
  .describe('Which model provider the key is for')
export type ModelProvider = z.infer<typeof ModelProvider>

/** How a provider is named to people: in messages, notifications and Settings → Models. */
export const providerName = (provider: ModelProvider): string =>
  provider === 'anthropic' ? 'Anthropic' : 'OpenAI-compatible'

/** The server's variable holding the deployment's own key for `provider`. */
export const deploymentKeyVariable = (provider: ModelProvider) =>
  provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_COMPATIBLE_API_KEY'

/** Whose key: the signed-in person's own, or their organisation's (admins and owners only). */
export const KeyScope = z
  .enum(['personal', 'org'], { error: 'must be "personal" or "org"' })
  .describe("personal: your own key; org: the organisation's key, spent by runAs: shared jobs")
export type KeyScope = z.infer<typeof KeyScope>

export const ModelKeyInput = z.strictObject({
  scope: KeyScope,
  provider: ModelProvider.default('anthropic'),
  apiKey: z
    .string({ error: 'is required' })
    .trim()
    .min(8, { error: 'looks too short for an API key' })
    .max(512, { error: 'must be at most 512 characters' })
    .regex(/^[\x21-\x7e]+$/, { error: 'must be printable characters without spaces' })
    .describe('The API key; stored encrypted and never shown again'),
})
export type ModelKeyInput = z.infer<typeof ModelKeyInput>

export const ModelKeyRemoval = z.strictObject({
  scope: KeyScope,
  provider: ModelProvider.default('anthropic'),
})

/** What anyone ever sees of a stored key. */
export type ModelKeySummary = {
  scope: KeyScope
  provider: ModelProvider
  /** "••••" and the key's last 4 characters. */
  masked: string
  updatedAt: string
  /**
   * When the provider refused the key (a 401) and what it said, or null. A refused key is
   * not used again until it is saved again (decision 0505).
   */
  refused: { at: string; reason: string } | null
}

/**
 * Whether the provider was asked about a key when it was saved (decision 0514): `ok: true` it
 * answered that the key works; `ok: false` it could not be asked or did not say (`reason`), and the
 * key was saved unchecked. A key it refused is not saved at all (a 400 naming `apiKey`).
 */
export type KeyCheck = { ok: true } | { ok: false; reason: string }

/** What a save answers: the stored key as anyone sees it, and how its check went. */
export type SavedModelKey = { key: ModelKeySummary; check: KeyCheck }

/** How a stored key is shown: never more than its last 4 characters. */
export const maskKey = (last4: string) => `••••${last4}`
