/**
 * The server serves every tenant from one process. A promise rejection nobody handled is a bug, but
 * Node's default for it (end the process) turns that bug into an outage for everyone whenever a
 * tenant finds the request that triggers it: a machine client's malformed message did exactly that
 * (decision 0381). It is logged as an error instead, with the reason, and the server keeps serving.
 * Uncaught exceptions are left to Node: a synchronous throw can leave state half-changed.
 */
type ErrorLogger = { error: (details: { err: unknown }, message: string) => void }

export function logUnhandledRejections(logger: ErrorLogger): void {
  process.on('unhandledRejection', (reason) => {
    logger.error(
      { err: reason },
      'a promise rejection nobody handled (a bug to fix); the server keeps serving',
    )
  })
}
