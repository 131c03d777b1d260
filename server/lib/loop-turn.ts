/**
 * Long work a request does in one process (a calendar's fires, a feed's events, a schedule's
 * preview) stops now and then so other requests are answered: awaiting this resumes it after the
 * event loop has gone round once, I/O callbacks included.
 */
export const letTheLoopGo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
