/**
 * Pre-bundles only the parts of "barrel" packages that browser code uses. `lucide-react`'s entry
 * re-exports ~1,700 icons and `radix-ui`'s every primitive: pre-bundled whole (config/client-deps.ts)
 * they were 580 KiB and 410 KiB of the development server's first page, for the ~60 icons and 8
 * primitives app/ imports. In development the pre-bundler reads, in place of such an entry, a
 * module that re-exports just the names app/ imports from it (listed when Vite starts). The
 * production build is unaffected: its bundler drops unused exports by itself.
 *
 * A name imported after the server started (a new icon) is not in the pre-bundle: that import is
 * pointed at the file that provides the name until the next start, which pre-bundles it again (the
 * list of names is part of the pre-bundle's cache key).
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { Plugin } from 'vite'

/** Packages whose entry re-exports far more than browser code imports. */
export const trimmedBarrels = ['lucide-react', 'radix-ui']

/** The named imports a module makes at runtime from `pkg` (`import { A, B as C } from 'pkg'`). */
export function importSpecs(source: string, pkg: string): { imported: string; local: string }[] {
  const specs: { imported: string; local: string }[] = []
  const quoted = pkg.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  const statement = new RegExp(`import\\s*(?!type\\s)\\{([^}]*)\\}\\s*from\\s*['"]${quoted}['"]`, 'g')
  for (const match of source.matchAll(statement)) {
    for (const spec of match[1]!.split(',')) {
      const trimmed = spec.trim()
      if (!trimmed || trimmed.startsWith('type ')) continue
      const [imported, local = imported] = trimmed.split(/\s+as\s+/).map((s) => s.trim())
      specs.push({ imported: imported!, local: local! })
    }
  }
  return specs
}

/** The names a module imports at runtime from `pkg`: `import { A, B as C } from 'pkg'` gives A, B. */
export function importedNames(source: string, pkg: string): string[] {
  return importSpecs(source, pkg).map((spec) => spec.imported)
}

/** What provides one exported name: `from` a module, as `imported` (`*` for a namespace). */
export type Provider = { imported: string; from: string }

/**
 * The names a barrel's ESM entry exports and what provides each: `export { a as B } from './x'`,
 * `export * as X from 'y'`, and `import * as X from 'y'` followed by `export { X }`. Other forms are not listed (a name
 * only they provide keeps the whole barrel, see trimBarrel).
 */
export function barrelExports(code: string): Map<string, Provider> {
  const exports = new Map<string, Provider>()
  const namespaces = new Map<string, string>()
  for (const m of code.matchAll(/import\s*\*\s*as\s+([\w$]+)\s+from\s*['"]([^'"]+)['"]/g)) {
    namespaces.set(m[1]!, m[2]!)
  }
  for (const m of code.matchAll(/export\s*\*\s*as\s+([\w$]+)\s+from\s*['"]([^'"]+)['"]/g)) {
    exports.set(m[1]!, { imported: '*', from: m[2]! })
  }
  for (const m of code.matchAll(/export\s*\{([^}]*)\}\s*(?:from\s*['"]([^'"]+)['"])?/g)) {
    const from = m[2]
    for (const spec of m[1]!.split(',')) {
      const [local, exported = local] = spec
        .trim()
        .split(/\s+as\s+/)
        .map((s) => s.trim())
      if (!local || !exported) continue
      if (from) exports.set(exported, { imported: local, from })
      else if (namespaces.has(local)) exports.set(exported, { imported: '*', from: namespaces.get(local)! })
    }
  }
  return exports
}

/** The entry re-exporting only `used`; null when one of them is not provided in a known form. */
export function trimBarrel(code: string, used: Iterable<string>): string | null {
  const exports = barrelExports(code)
  const lines: string[] = []
  for (const name of [...new Set(used)].sort()) {
    const provider = exports.get(name)
    if (!provider) return null
    lines.push(
      provider.imported === '*'
        ? `export * as ${name} from ${JSON.stringify(provider.from)};`
        : `export { ${provider.imported} as ${name} } from ${JSON.stringify(provider.from)};`,
    )
  }
  return lines.join('\n') + '\n'
}

/** The ESM file a package specifier (`radix-ui`, `@radix-ui/react-dialog`) opens, seen from `fromFile`. */
export function esmEntry(specifier: string, fromFile: string): string {
  const require = createRequire(fromFile)
  const manifestFile = require.resolve(`${specifier}/package.json`)
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
    module?: string
    exports?: Record<string, unknown>
  }
  const dot = manifest.exports?.['.'] as Record<string, unknown> | string | undefined
  const pick = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value
    if (value && typeof value === 'object') {
      const conditions = value as Record<string, unknown>
      return (
        pick(conditions.browser) ??
        pick(conditions.import) ??
        pick(conditions.module) ??
        pick(conditions.default)
      )
    }
    return undefined
  }
  const relative = pick(dot) ?? manifest.module
  if (!relative) throw new Error(`${specifier}: no ESM entry in its package.json`)
  return path.join(path.dirname(manifestFile), relative)
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(file)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : []
  })
}

/** For each trimmed barrel: its entry file, and the names app/ imports from it now. */
export function usedBarrelNames(root: string): { pkg: string; entry: string; names: string[] }[] {
  const sources = sourceFiles(path.join(root, 'app')).map((file) => readFileSync(file, 'utf8'))
  return trimmedBarrels.map((pkg) => ({
    pkg,
    entry: esmEntry(pkg, path.join(root, 'package.json')),
    names: [...new Set(sources.flatMap((source) => importedNames(source, pkg)))].sort(),
  }))
}

/**
 * The pre-bundler's plugin (optimizeDeps.rolldownOptions.plugins) and the development server's
 * (for names imported after the start). The pre-bundler's plugin name carries a hash of the names,
 * so a different set of names makes Vite pre-bundle again at the next start.
 */
export function trimmedBarrelPlugins(root: string): {
  prebundle: { name: string; load(id: string): string | null }
  serve: Plugin
} {
  const barrels = usedBarrelNames(root).map((barrel) => {
    const code = readFileSync(barrel.entry, 'utf8')
    return { ...barrel, code, trimmed: trimBarrel(code, barrel.names), exports: barrelExports(code) }
  })
  const byEntry = new Map(
    barrels.filter((b) => b.trimmed !== null).map((b) => [path.normalize(b.entry), b.trimmed!]),
  )
  const hash = createHash('sha256')
    .update(JSON.stringify(barrels.map((b) => [b.pkg, b.names, b.trimmed !== null])))
    .digest('hex')
    .slice(0, 12)

  const prebundle = {
    name: `clockwork:trimmed-barrels:${hash}`,
    load(id: string) {
      return byEntry.get(path.normalize(id.split('?')[0]!)) ?? null
    },
  }

  const appDir = path.join(root, 'app') + path.sep
  const warned = new Set<string>()
  const serve: Plugin = {
    name: 'clockwork:trimmed-barrels-late-names',
    apply: 'serve',
    transform(code, id) {
      if (this.environment.name !== 'client' || !id.startsWith(appDir)) return null
      let changed = code
      for (const barrel of barrels) {
        if (barrel.trimmed === null || !code.includes(barrel.pkg)) continue
        const late = importSpecs(code, barrel.pkg).filter((spec) => !barrel.names.includes(spec.imported))
        if (late.length === 0) continue
        const imports: string[] = []
        for (const { imported, local } of late) {
          const provider = barrel.exports.get(imported)
          if (!provider) continue // Not exported at all: the browser reports it as it would anyway.
          const from = provider.from.startsWith('.')
            ? path.join(path.dirname(barrel.entry), provider.from)
            : esmEntry(provider.from, barrel.entry)
          imports.push(
            provider.imported === '*'
              ? `import * as ${local} from ${JSON.stringify(from)};`
              : `import { ${provider.imported} as ${local} } from ${JSON.stringify(from)};`,
          )
          if (!warned.has(imported)) {
            warned.add(imported)
            this.warn(
              `${barrel.pkg}: ${imported} is new since the server started; it is pre-bundled at the next start`,
            )
          }
        }
        const lateNames = new Set(late.map((spec) => spec.imported))
        // The late names leave the barrel's import (which does not provide them) for their own.
        const quoted = barrel.pkg.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
        changed = changed.replace(
          new RegExp(`import\\s*(?!type\\s)\\{([^}]*)\\}\\s*from\\s*(['"])${quoted}\\2;?`, 'g'),
          (_statement, specs: string, quote: string) => {
            const kept = specs
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s && !lateNames.has(s.split(/\s+as\s+/)[0]!.trim()))
            return kept.length ? `import { ${kept.join(', ')} } from ${quote}${barrel.pkg}${quote};` : ''
          },
        )
        changed = imports.join('\n') + '\n' + changed
      }
      return changed === code ? null : { code: changed, map: null }
    },
  }
  return { prebundle, serve }
}
