/**
 * Tells zod, in the browser, not to probe for `eval`: the probe is caught, but under our
 * Content-Security-Policy (no 'unsafe-eval') the browser still reports a violation. Imported first
 * by the chat's conversation (app/components/chat/chat-session.tsx), the only browser code that
 * brings zod (through the AI SDK); it loads when the chat is first opened, not with every page.
 */
import { config } from 'zod'

if (typeof document !== 'undefined') config({ jitless: true })
