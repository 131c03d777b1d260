import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import { denyImports } from 'vite-env-only'

export default defineConfig({
  plugins: [
    // Client bundles must never contain server code (secrets, drizzle, keys).
    denyImports({
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
    }),
    tailwindcss(),
    reactRouter(),
  ],
  resolve: {
    tsconfigPaths: true,
  },
})
