import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { clientDeps } from './client-deps.ts'

// Added to Vite's pre-bundling by React Router's own plugin.
const fromReactRouter = ['react', 'react-dom', 'react-router']

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(file)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [file] : []
  })
}

/** Bare package names a file imports at runtime (type-only imports never reach the browser). */
function runtimePackages(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = [...text.matchAll(/^import (?!type )(?:[^'"]*? from )?['"]([^'"]+)['"]/gm)].map(
    (m) => m[1] ?? '',
  )
  return (
    specifiers
      .filter((s) => !s.startsWith('.') && !s.startsWith('#') && !s.startsWith('node:'))
      // Font packages are CSS: Vite's CSS pipeline serves them, dependency pre-bundling never sees them.
      .filter((s) => !s.startsWith('@fontsource'))
      .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : (s.split('/')[0] ?? s)))
  )
}

describe('client dependencies for Vite', () => {
  it('lists every package browser code imports, since discovery is off', () => {
    // routes.ts is read by React Router's build tooling only, and entry.server.tsx runs on the
    // server only: neither is shipped.
    const serverOnly = new Set([path.join('app', 'routes.ts'), path.join('app', 'entry.server.tsx')])
    const files = sourceFiles('app').filter((f) => !serverOnly.has(f))
    const listed = new Set([
      ...fromReactRouter,
      ...clientDeps.map((d) =>
        d.startsWith('@') ? d.split('/').slice(0, 2).join('/') : (d.split('/')[0] ?? d),
      ),
    ])
    const missing = [...new Set(files.flatMap(runtimePackages))].filter((p) => !listed.has(p))
    expect(missing, 'add these to config/client-deps.ts').toEqual([])
  })
})
