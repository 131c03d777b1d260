/**
 * The one table of request body limits, in bytes. The express-level reader (server/http/
 * body-limit.ts) refuses anything past these before React Router or better-auth see a byte; the
 * domains check their own kinds (a job file, a workspace file) against the same numbers.
 */
const KiB = 1024
const MiB = 1024 * KiB

export const BODY_LIMITS = {
  /** Any JSON API body (jobs, model keys, better-auth). */
  json: 256 * KiB,
  /** A chat turn: the new message plus the thread's visible messages the client sends along. */
  chat: 512 * KiB,
  /**
   * A job file (`jobs/<name>.md`): as large as a JSON body, so whatever the API takes renders to a
   * file that can be saved back (the jobs service keeps room for the fields the server adds).
   */
  jobFile: 256 * KiB,
  /** Any other workspace file. */
  workspaceFile: 1 * MiB,
  /**
   * A page action's form: at most one workspace file, form-encoded, where `%XX` triples every
   * non-ASCII byte, plus the other fields.
   */
  pageForm: 3 * MiB + 64 * KiB,
  /** A harness's model call through its run's endpoint: a whole conversation with its files. */
  harness: 32 * MiB,
} as const

export type BodyKind = keyof typeof BODY_LIMITS

/**
 * Request-body bytes held at once while bodies arrive and their requests run (server/http/
 * body-budget.ts): per client (an IPv4 address, an IPv6 /64), room for one harness call and then
 * some; in all, a share of a 512 MiB machine that leaves the rest to everything else.
 */
export const BODY_BUDGET = {
  perAddress: 40 * MiB,
  total: 160 * MiB,
} as const
