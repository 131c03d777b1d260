import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import { trimmedBarrelPlugins } from './config/client-barrels.ts'
import { clientDeps } from './config/client-deps.ts'
import { serverImportGuard } from './config/server-import-guard.ts'

export default defineConfig(({ command, isSsrBuild }) => {
  // Development only: the pre-bundle of lucide-react and radix-ui holds only what app/ imports.
  const barrels = command === 'serve' ? trimmedBarrelPlugins(import.meta.dirname) : null
  return {
    // The production server is the SSR build's entry: server/main.ts imports the route build, so the
    // routes and the server are bundled together and share every server module (one module graph).
    build: isSsrBuild ? { rollupOptions: { input: 'server/main.ts' } } : {},
    plugins: [serverImportGuard(), tailwindcss(), reactRouter(), ...(barrels ? [barrels.serve] : [])],
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
