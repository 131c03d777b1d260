/**
 * A harness run's endpoint session for tests that reach it over its socket without a model: its
 * grant points at an address that answers nothing, every tool call is allowed, nothing is redacted
 * but what the endpoint hides itself.
 */
import { openSession, type HarnessSession, type SessionOptions } from '#server/harness/endpoint.ts'

export const openOfflineSession = (options: Partial<SessionOptions> = {}): HarnessSession =>
  openSession({
    grant: {
      baseURL: 'http://127.0.0.1:9/v1',
      apiKey: 'sk-test',
      modelId: 'claude-test',
      price: () => 0,
      cap: null,
    },
    decide: async () => ({ allow: true }),
    mcp: new Map(),
    redact: (text) => text,
    onRefusal: () => {},
    door: 'socket',
    ...options,
  })
