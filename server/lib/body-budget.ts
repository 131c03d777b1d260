/**
 * How many request-body bytes the server holds at once, per client address and in all. The body
 * limiter (body-limit.ts) reads a body before any session or token is checked, so each request's
 * limit alone bounds nothing: an anonymous client that opens many uploads and never sends their
 * last byte makes the server hold all of them (decision 0362). Each body takes its bytes from both
 * budgets as they arrive (its declared length at once) and gives them back when its request ends.
 */
import { isIP } from 'node:net'
import { BODY_BUDGET } from './limits.ts'
import { singleton } from './singleton.ts'

/** Why a body was refused: its client's share is used up, or the server's. */
export type BudgetRefusal = 'address' | 'server'

export type BodyBudget = {
  /** Takes `bytes` for `address`; null when granted, else which budget is spent (nothing taken). */
  take(address: string, bytes: number): BudgetRefusal | null
  give(address: string, bytes: number): void
}

export function createBodyBudget(limits: { perAddress: number; total: number } = BODY_BUDGET): BodyBudget {
  const held = new Map<string, number>()
  let total = 0
  return {
    take(address, bytes) {
      const key = clientKey(address)
      const mine = held.get(key) ?? 0
      if (mine + bytes > limits.perAddress) return 'address'
      if (total + bytes > limits.total) return 'server'
      held.set(key, mine + bytes)
      total += bytes
      return null
    },
    give(address, bytes) {
      const key = clientKey(address)
      const left = (held.get(key) ?? 0) - bytes
      if (left > 0) held.set(key, left)
      else held.delete(key)
      total = Math.max(0, total - bytes)
    },
  }
}

/**
 * One request's hold on a budget: its body's bytes are taken as they arrive and all given back when
 * its answer closes (a body handed on stays in memory while its route runs). The HTTP limiter and a
 * harness run's socket both count through this, so the two doors keep the same books.
 */
export type BodyHold = {
  /** Grows the hold to `size` bytes in all; the refusal when a budget is spent (nothing more taken). */
  growTo(size: number): BudgetRefusal | null
  /** Gives back everything held so far: the body was dropped before its request ended. */
  release(): void
}

export function holdBody(
  budget: BodyBudget,
  owner: string,
  answer: { once(event: 'close', listener: () => void): unknown },
): BodyHold {
  let held = 0
  const release = () => {
    budget.give(owner, held)
    held = 0
  }
  answer.once('close', release)
  return {
    growTo(size) {
      if (size <= held) return null
      const refusal = budget.take(owner, size - held)
      if (refusal === null) held = size
      return refusal
    },
    release,
  }
}

/**
 * The server's one budget: the HTTP routes' bodies (server/http/body-limit.ts) and those sent to a
 * harness run's Unix socket (server/harness/socket.ts) take from the same total.
 */
export const serverBodyBudget = (): BodyBudget => singleton('body-budget', () => createBodyBudget())

/**
 * The client an address stands for: an IPv4 address itself, an IPv6 one by its /64 (one host is
 * routinely given a whole /64, and could otherwise take a share per address in it).
 */
export function clientKey(address: string): string {
  const bare = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')
  if (isIP(bare) !== 6) return bare
  const [head = '', tail = ''] = bare.toLowerCase().split('::')
  const front = head ? head.split(':') : []
  const back = bare.includes('::') ? (tail ? tail.split(':') : []) : []
  // A dotted IPv4 tail (`64:ff9b::1.2.3.4`) fills two groups.
  const width = (parts: string[]) => parts.length + (parts.at(-1)?.includes('.') ? 1 : 0)
  const missing = 8 - width(front) - width(back)
  const groups = [...front, ...Array<string>(Math.max(0, missing)).fill('0'), ...back]
  return `${groups
    .slice(0, 4)
    .map((g) => g.padStart(4, '0'))
    .join(':')}::/64`
}
