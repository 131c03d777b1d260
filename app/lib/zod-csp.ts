/**
 * Tells zod, in the browser, not to probe for `eval`: the probe is caught, but under our
 * Content-Security-Policy (no 'unsafe-eval') the browser still reports a violation. Imported first
 * by app/root.tsx, because route modules evaluate (and may parse) before the client entry runs.
 */
import { config } from 'zod'

if (typeof document !== 'undefined') config({ jitless: true })
