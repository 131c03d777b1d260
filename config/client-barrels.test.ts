import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  barrelExports,
  importedNames,
  trimBarrel,
  trimmedBarrelPlugins,
  usedBarrelNames,
} from './client-barrels.ts'

const root = process.cwd()
const code = (file: string) => readFileSync(file, 'utf8')

describe('trimmed barrels for the development pre-bundle', () => {
  it('reads the names a module imports, leaving type-only imports out', () => {
    const source = [
      `import { ArrowDown, ArrowUp as Up } from 'lucide-react'`,
      `import type { LucideIcon } from 'lucide-react'`,
      `import { type LucideProps, X } from "lucide-react"`,
      `import { Dialog } from 'radix-ui'`,
    ].join('\n')
    expect(importedNames(source, 'lucide-react')).toEqual(['ArrowDown', 'ArrowUp', 'X'])
    expect(importedNames(source, 'radix-ui')).toEqual(['Dialog'])
  })

  it('pre-bundles only the icons and primitives app/ imports, each of them', async () => {
    const barrels = usedBarrelNames(root)
    for (const barrel of barrels) {
      expect(barrel.names.length, `${barrel.pkg}: app/ imports some of it`).toBeGreaterThan(0)
      const code = readFileSync(barrel.entry, 'utf8')
      const all = barrelExports(code)
      const trimmed = trimBarrel(code, barrel.names)
      expect(trimmed, `${barrel.pkg}: every imported name found in its entry`).not.toBeNull()
      // Exactly the imported names, a small part of what the entry offers.
      expect([...barrelExports(trimmed!).keys()].sort()).toEqual(barrel.names)
      expect(barrel.names.length).toBeLessThan(all.size / 2)
    }
    const lucide = barrels.find((b) => b.pkg === 'lucide-react')!
    const { prebundle } = trimmedBarrelPlugins(root)
    const served = prebundle.load(lucide.entry)
    expect(served).toContain('export { default as ArrowDown } from "./icons/arrow-down.mjs";')
    expect(served).not.toContain(' as Accessibility ')
    expect(code(lucide.entry)).toContain(' as Accessibility,')
    expect(prebundle.load(`${root}/node_modules/react/index.js`)).toBeNull()
  })

  it('keeps the whole entry when a name is not re-exported in a form it reads', () => {
    const code = `export { default as A } from './a.mjs';\nimport * as B from 'b';\nexport { B };`
    expect(trimBarrel(code, ['B'])).toBe('export * as B from "b";\n')
    expect(trimBarrel(code, ['A', 'C'])).toBeNull()
  })

  it('names the pre-bundle after the imported names, so a new one pre-bundles again', () => {
    const { prebundle } = trimmedBarrelPlugins(root)
    expect(prebundle.name).toMatch(/^clockwork:trimmed-barrels:[0-9a-f]{12}$/)
    expect(trimmedBarrelPlugins(root).prebundle.name).toBe(prebundle.name)
  })
})
