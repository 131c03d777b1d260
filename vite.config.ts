import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import { serverImportGuard } from './config/server-import-guard.ts'

export default defineConfig({
  plugins: [serverImportGuard(), tailwindcss(), reactRouter()],
  resolve: {
    tsconfigPaths: true,
  },
})
