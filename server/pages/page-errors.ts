import { data } from 'react-router'
import { HttpError } from '../lib/errors.ts'

/**
 * For page loaders: a service's HttpError becomes a route error response (404, 403, …) with its
 * message, so the route's ErrorBoundary can say what happened; anything else propagates as a 500.
 */
export async function orRouteError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (err) {
    if (err instanceof HttpError) throw data(err.message, { status: err.status })
    throw err
  }
}
