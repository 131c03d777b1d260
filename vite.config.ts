import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import { clientDeps } from './config/client-deps.ts'
import { serverImportGuard } from './config/server-import-guard.ts'

export default defineConfig({
  plugins: [serverImportGuard(), tailwindcss(), reactRouter()],
  resolve: {
    tsconfigPaths: true,
  },
  // The server entry reads .env once, before anything else (server/load-env.ts); Vite and React
  // Router must not read it a second time, with other rules (.env.local, .env.development).
  envDir: false,
  optimizeDeps: {
    noDiscovery: true,
    include: clientDeps,
  },
})
