/**
 * Sockets waiting to register, counted per token and per client address (decision 0427). The
 * endpoint holds a socket with a valid token for up to ten seconds before it registers, and nothing
 * counted them: one account could open thousands, each a file descriptor and a connection's state,
 * and tokens are cheap to make (twenty live at once, more after revoking). A real client waits
 * milliseconds, one socket at a time: a machine reconnecting, or a few of one person's machines
 * starting together, each with its own token.
 */
import { clientKey } from '../lib/body-budget.ts'
import { singleton } from '../lib/singleton.ts'

/**
 * Sockets that may wait to register at once on an instance, per token and per client address (an
 * IPv4 address, an IPv6 /64): a token's machine reconnecting needs one, and an office behind one
 * address restarting its machines together registers each in milliseconds.
 */
export const MAX_WAITING = { token: 4, address: 32 } as const

export type WaitingKind = keyof typeof MAX_WAITING

const counts = singleton('machines.waiting', () => ({
  token: new Map<string, number>(),
  address: new Map<string, number>(),
}))

/** One socket's places among those waiting: taken one kind at a time, all given back at once. */
export class WaitingPlaces {
  private readonly held: [WaitingKind, string][] = []

  /** Takes a place under `key` (a token id, or an address); false, taking nothing, when they are all taken. */
  take(kind: WaitingKind, key: string): boolean {
    const k = kind === 'address' ? clientKey(key) : key
    const taken = counts[kind].get(k) ?? 0
    if (taken >= MAX_WAITING[kind]) return false
    counts[kind].set(k, taken + 1)
    this.held.push([kind, k])
    return true
  }

  /** Gives back every place this socket holds: it registered, was refused, or went. Safe to repeat. */
  release() {
    for (const [kind, k] of this.held.splice(0)) {
      const left = (counts[kind].get(k) ?? 1) - 1
      if (left > 0) counts[kind].set(k, left)
      else counts[kind].delete(k)
    }
  }
}
