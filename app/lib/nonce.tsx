import { createContext, useContext } from 'react'

/**
 * The Content-Security-Policy nonce of this page's inline scripts, set by app/entry.server.tsx.
 * In the browser it is empty: browsers hide nonces from the DOM, and hydration does not need it.
 */
const NonceContext = createContext('')

export const NonceProvider = NonceContext.Provider
export const useNonce = () => useContext(NonceContext)
