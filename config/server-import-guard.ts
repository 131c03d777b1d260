import type { Plugin } from 'vite'
import { denyImports } from 'vite-env-only'

/**
 * Fails the client build when browser code imports server code (secrets, drizzle,
 * keys). Build only: in dev, React Router's CSS crawler walks server modules in the
 * client environment and would trip the check without any server code shipping.
 */
export function serverImportGuard(): Plugin[] {
  const plugins = denyImports({
    client: {
      specifiers: [
        '#server/*',
        'postgres',
        '@electric-sql/pglite',
        'drizzle-orm',
        'better-auth/node',
        'pino',
      ],
      files: ['**/server/**'],
    },
  }) as Plugin[]
  return plugins.map((plugin) => ({ ...plugin, apply: 'build' as const }))
}
