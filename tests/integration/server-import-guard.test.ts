import path from 'node:path'
import { build } from 'vite'
import { describe, expect, it } from 'vitest'
import { serverImportGuard } from '../../config/server-import-guard.ts'

const fixtures = path.resolve(import.meta.dirname, 'fixtures/import-guard')

function buildClient(entry: string) {
  return build({
    configFile: false,
    logLevel: 'silent',
    root: fixtures,
    plugins: [serverImportGuard()],
    build: { write: false, lib: { entry: path.join(fixtures, entry), formats: ['es'] } },
  })
}

describe('the client build guard', () => {
  it('fails the build when client code imports a server module', async () => {
    await expect(buildClient('leaky.ts')).rejects.toThrow(/Import denied/)
  })

  it('lets client-only code build', async () => {
    await expect(buildClient('clean.ts')).resolves.toBeDefined()
  })
})
