import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Plugin } from 'vite'
import { trimmedBarrelPlugins } from './config/client-barrels.ts'
import { clientDeps } from './config/client-deps.ts'
import { serverImportGuard } from './config/server-import-guard.ts'

export default defineConfig(({ command, isSsrBuild }) => {
  // Inside vitest (a dev server a test spawns from source) no browser asks for client
  // modules, and parallel files pre-bundled them into one cache folder over each other (decision
  // 0331). The browser tests run `npm run dev` outside vitest, with the pre-bundle.
  const prebundle = command === 'serve' && !process.env.VITEST
  // Development only: the pre-bundle of lucide-react and radix-ui holds only what app/ imports.
  const barrels = prebundle ? trimmedBarrelPlugins(import.meta.dirname) : null
  const routesOnly = Boolean(process.env.CLOCKWORK_ROUTES_BUILD_DIR)
  return {
    // The production server is the SSR build's entry: server/main.ts imports the route build, so the
    // routes and the server are bundled together and share every server module (one module graph).
    // The tests' build of the routes alone (tests/support/routes-build.ts) keeps React Router's entry.
    build: isSsrBuild && !routesOnly ? { rollupOptions: { input: 'server/main.ts' } } : {},
    plugins: [
      serverImportGuard(),
      tailwindcss(),
      reactRouter(),
      ...(barrels ? [barrels.serve] : []),
      ...(command === 'serve' && !prebundle ? [noClientPrebundle] : []),
    ],
    resolve: {
      tsconfigPaths: true,
    },
    // The server entry reads .env once, before anything else (server/load-env.ts); Vite and React
    // Router must not read it a second time, with other rules (.env.local, .env.development).
    envDir: false,
    optimizeDeps: {
      noDiscovery: true,
      include: clientDeps,
      ...(barrels ? { rolldownOptions: { plugins: [barrels.prebundle] } } : {}),
    },
  }
})

/** No client pre-bundle at all: runs after React Router's plugin has added its own packages to it. */
const noClientPrebundle: Plugin = {
  name: 'clockwork:no-client-prebundle',
  enforce: 'post',
  config(config) {
    config.optimizeDeps = { ...config.optimizeDeps, noDiscovery: true, include: [] }
  },
}
