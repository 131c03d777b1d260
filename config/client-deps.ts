/**
 * The packages browser code imports, pre-bundled by Vite before the first page is served.
 *
 * Vite's dependency discovery is off (vite.config.ts), because in development React Router's
 * CSS crawler walks route modules' server imports in the client graph: discovery then found
 * pglite, postgres, pino and drizzle mid-visit, re-optimised and reloaded the page under the user
 * (once with two copies of React). With discovery off nothing is found late, so nothing reloads.
 * The price is this list: a new client package goes here (config/client-deps.test.ts checks it).
 * React and React Router are added by React Router's plugin.
 */
export const clientDeps = [
  '@ai-sdk/react',
  '@codemirror/lang-markdown',
  '@codemirror/lang-yaml',
  '@codemirror/language',
  '@lezer/highlight',
  '@uiw/react-codemirror',
  'ai',
  'better-auth/client/plugins',
  'better-auth/react',
  'lucide-react',
  'radix-ui',
  'react-markdown',
  'remark-gfm',
  'sonner',
  'zod',
]
