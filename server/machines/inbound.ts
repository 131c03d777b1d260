/**
 * What a machine client's messages may cost the server before they are parsed. A client is its
 * owner's program, so anyone who signs up can send what they like: each message (up to the
 * socket's 16 MiB) is parsed with JSON.parse on the one event loop. A 16 MiB array nested 8
 * million deep held it for two seconds, and a client may send them back to back, replies nobody
 * asked for included (decision 0363).
 */
import { singleton } from '../lib/singleton.ts'

/** Deeper than any message of the protocol (a listing reply is four levels) by far. */
export const MAX_DEPTH = 32

const KiB = 1024
const MiB = 1024 * KiB

/**
 * What a message costs beyond its bytes, counted as bytes. Taking a message in (its frame, the
 * checks, the JSON-RPC layer, an answer) costs the loop some 15–30 µs however small it is, as much
 * as parsing one or two kilobytes: 400,000 forty-byte requests, 16 MB of budget, took about nine
 * seconds to answer (decision 0427). Charged 2 KiB more apiece, a flood of tiny messages is read
 * at about 2,000 a second on one connection and 4,000 from all, as paced as a flood of big ones.
 */
export const MESSAGE_COST = 2 * KiB

/**
 * Bytes per second parsed from one connection and from all of them, with the burst each may send
 * at once; each message also costs {@link MESSAGE_COST}. At about 15 ns a byte (parse plus the
 * depth scan), 8 MiB a second of all clients costs the loop at most an eighth of its time; a
 * command's 1 MB output and its reply fit one burst.
 */
export const INBOUND_RATES = {
  connection: { bytesPerSecond: 4 * MiB, burst: 16 * MiB, perMessage: MESSAGE_COST },
  all: { bytesPerSecond: 8 * MiB, burst: 32 * MiB, perMessage: MESSAGE_COST },
} as const

/**
 * True when `data`, read as JSON, opens more than `max` arrays or objects at once. A linear scan
 * that skips strings; it never allocates, so it costs the same whatever the nesting.
 */
export function nestedDeeperThan(data: Buffer, max: number = MAX_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!
    if (inString) {
      if (c === 0x5c)
        i++ // a backslash: skip the escaped byte (an escaped quote ends nothing)
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}

/**
 * True when `data`, read as JSON, is an array: a JSON-RPC batch. The protocol never sends one
 * (each side sends one message at a time), and the JSON-RPC layer answers a batch's requests one
 * after another without yielding: one 16 MiB array of 440,000 requests held the loop about four
 * seconds and was answered with 34 MB, where parsing it alone takes a twentieth of that
 * (decision 0419). Refused before it is parsed, as a message nested too deep is.
 */
export function isBatch(data: Buffer): boolean {
  for (const c of data) {
    // JSON's whitespace: space, tab, line feed, carriage return.
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue
    return c === 0x5b
  }
  return false
}

/**
 * A token bucket of bytes: how long to stop reading after a message of `bytes`, which costs its
 * bytes and `perMessage` more.
 */
export type InboundMeter = { admit(bytes: number): number }

export function createInboundMeter(
  rate: { bytesPerSecond: number; burst: number; perMessage: number },
  now: () => number = Date.now,
): InboundMeter {
  let tokens = rate.burst
  let at = now()
  return {
    admit(bytes) {
      const t = now()
      tokens = Math.min(rate.burst, tokens + ((t - at) / 1000) * rate.bytesPerSecond)
      at = t
      tokens -= bytes + rate.perMessage
      return tokens >= 0 ? 0 : Math.ceil((-tokens / rate.bytesPerSecond) * 1000)
    },
  }
}

/** The meter every machine connection of this process shares. */
export const allMachinesMeter = () =>
  singleton('machines.inbound', () => createInboundMeter(INBOUND_RATES.all))
