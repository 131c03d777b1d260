import { isRouteErrorResponse } from 'react-router'

/**
 * What browsers say when a fetch got no answer at all (the network is down, the server does not
 * listen): Chromium, Firefox, Safari and React Native. A TypeError with any other message is a bug
 * in a page (`Cannot read properties of undefined`), not the network.
 */
const NO_ANSWER =
  /^(failed to fetch|networkerror when attempting to fetch resource\.?|load failed|network request failed)$/i

/**
 * Whether a route's error means the browser could not reach Clockwork (decision 0529): a client
 * navigation, a revalidation or a form whose request got no answer, or a gateway in front of the
 * app (a proxy's 502 or 504: it got no answer from the app) answering for it. Such an error says
 * nothing about the page: the page says "can't reach Clockwork" and offers to try again.
 */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof TypeError) return NO_ANSWER.test(error.message.trim())
  return isRouteErrorResponse(error) && (error.status === 502 || error.status === 504)
}
