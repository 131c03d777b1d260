/**
 * What a machine client's messages may cost the server before they are parsed. A client is its
 * owner's program, so anyone who signs up can send what they like: each message (up to the
 * socket's 16 MiB) is parsed with JSON.parse on the one event loop. A 16 MiB array nested 8
 * million deep held it for two seconds (decision 0363), 16 MiB of empty objects a second and a
 * half (decision 0445), and a client may send them back to back, replies nobody asked for included.
 */
import { measureJson, type JsonBounds, type JsonShape } from '../lib/json-shape.ts'
import { singleton } from '../lib/singleton.ts'

/** Deeper than any message of the protocol (a listing reply is four levels) by far. */
export const MAX_DEPTH = 32

const KiB = 1024
const MiB = 1024 * KiB

/**
 * The most values one message may hold (counted as `measureJson` counts them): one per eight bytes
 * of the socket's 16 MiB. The densest message the protocol makes is a listing, an entry
 * (`{"name":"abcd","type":"file","size":0}`) four values in some forty bytes, so a listing of any
 * folder that fits a message fits this too, with a quarter to spare; a command's megabyte of output
 * is a dozen values. The costliest values, empty objects, parse at about 140 ns apiece: a message
 * at the bound holds the loop some 0.3 s, what 16 MiB of ordinary JSON costs at the meter's 15 ns
 * a byte. Unbounded, 16 MiB of them held it for 1.5 s.
 */
export const MAX_VALUES = (16 * MiB) / 8

/** What a message may hold: it is refused unparsed past either bound. */
const MESSAGE_SHAPE: JsonBounds = { maxDepth: MAX_DEPTH, maxValues: MAX_VALUES }

/**
 * A message's depth and values, scanned without parsing it: linear, it jumps over strings and
 * allocates nothing, and stops at the first bound passed (`past` says which).
 */
export const measureMessage = (text: string): JsonShape => measureJson(text, MESSAGE_SHAPE)

/**
 * What a message costs beyond its bytes, counted as bytes. Taking a message in (its frame, the
 * checks, the JSON-RPC layer, an answer) costs the loop some 15–30 µs however small it is, as much
 * as parsing one or two kilobytes: 400,000 forty-byte requests, 16 MB of budget, took about nine
 * seconds to answer (decision 0427). Charged 2 KiB more apiece, a flood of tiny messages is read
 * at about 2,000 a second on one connection and 4,000 from all, as paced as a flood of big ones.
 */
export const MESSAGE_COST = 2 * KiB

/**
 * What each value of a message costs beyond its bytes, counted as bytes. The parser makes every
 * value it reads: an empty object in an array, a byte and a half of text counted twice, costs about
 * 140 ns, nine bytes at the meter's 15 ns a byte (16 MiB of them took 1.5 s where the meter
 * budgeted 0.25 s). Charged eight bytes more, they are paced as their cost asks; a listing pays
 * about half its bytes again, a command's output nothing (decision 0445).
 */
export const VALUE_COST = 8

/**
 * Bytes per second parsed from one connection and from all of them, with the burst each may send
 * at once; each message also costs {@link MESSAGE_COST}, and each value {@link VALUE_COST}. At
 * about 15 ns a byte (parse plus the scan), 8 MiB a second of all clients costs the loop at most an
 * eighth of its time; a command's 1 MB output and its reply fit one burst.
 */
export const INBOUND_RATES = {
  connection: { bytesPerSecond: 4 * MiB, burst: 16 * MiB, perMessage: MESSAGE_COST, perValue: VALUE_COST },
  all: { bytesPerSecond: 8 * MiB, burst: 32 * MiB, perMessage: MESSAGE_COST, perValue: VALUE_COST },
} as const

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
 * A token bucket of bytes: how long to stop reading after a message of `bytes` holding `values`,
 * which costs its bytes, `perMessage` more and `perValue` more for each value.
 */
export type InboundMeter = { admit(bytes: number, values?: number): number }

export function createInboundMeter(
  rate: { bytesPerSecond: number; burst: number; perMessage: number; perValue?: number },
  now: () => number = Date.now,
): InboundMeter {
  let tokens = rate.burst
  let at = now()
  return {
    admit(bytes, values = 0) {
      const t = now()
      tokens = Math.min(rate.burst, tokens + ((t - at) / 1000) * rate.bytesPerSecond)
      at = t
      tokens -= bytes + rate.perMessage + values * (rate.perValue ?? 0)
      return tokens >= 0 ? 0 : Math.ceil((-tokens / rate.bytesPerSecond) * 1000)
    },
  }
}

/** The meter every machine connection of this process shares. */
export const allMachinesMeter = () =>
  singleton('machines.inbound', () => createInboundMeter(INBOUND_RATES.all))
