/**
 * `npm run harness:install <id>`: installs a harness's CLI, pinned, under `.data/harness/<id>`
 * (nothing outside the app's folder, nothing in package.json: people who use no harness install
 * nothing). The adapter finds it there; `<pathVariable>` points at one installed elsewhere.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { installFolder } from './adapter.ts'
import { harnessAdapter, harnessAdapters } from './registry.ts'

const id = process.argv[2]
const adapter = id ? harnessAdapter(id) : undefined
if (!adapter) {
  const known = harnessAdapters()
    .map((a) => a.id)
    .join(', ')
  console.error(`usage: npm run harness:install <${known}>`)
  process.exit(2)
}
const folder = installFolder(adapter.id)
const spec = `${adapter.install.package}@${adapter.install.version}`
const found = adapter.locate()
const version = found ? spawnSync(found, ['--version'], { encoding: 'utf8' }).stdout.trim() : ''
if (found && version.startsWith(adapter.install.version)) {
  console.log(`${adapter.label} ${version} is installed: ${found}`)
  process.exit(0)
}
mkdirSync(folder, { recursive: true })
console.log(`installing ${spec} into ${folder}`)
const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', folder, spec], {
  stdio: 'inherit',
})
if (npm.status !== 0) process.exit(npm.status ?? 1)
const cli = adapter.locate()
if (!cli) {
  console.error(`${spec} installed, but its CLI (${adapter.install.bin}) is not there`)
  process.exit(1)
}
console.log(
  `${adapter.label}: ${spawnSync(cli, ['--version'], { encoding: 'utf8' }).stdout.trim()} at ${cli}`,
)
