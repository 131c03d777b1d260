/**
 * The CLIs this app offers the agent. Each is available only when installed (and, by default,
 * only when bubblewrap can isolate it). Add yours here; see docs/agent.md, "Command-line tools".
 * Not here: `gh` and other tools that need the network and a token; the isolated scratch dir
 * gives neither. Wrap such a tool in your own CliAdapter that holds its credentials in the parent.
 */
import { singleton } from '../lib/singleton.ts'
import { CliRegistry } from './registry.ts'
import { ShellCliAdapter } from './shell-cli-adapter.ts'

export function createDefaultCliRegistry(): CliRegistry {
  return new CliRegistry()
    .register(
      new ShellCliAdapter({ command: 'git', description: 'git, in an empty scratch dir without network' }),
    )
    .register(new ShellCliAdapter({ command: 'rg', description: 'ripgrep: search text given on stdin' }))
    .register(new ShellCliAdapter({ command: 'jq', description: 'jq: filter JSON given on stdin' }))
    .register(
      new ShellCliAdapter({
        command: 'ffmpeg',
        description: 'ffmpeg: convert media (no files in, no network)',
      }),
    )
    .register(
      new ShellCliAdapter({ command: 'ffprobe', description: 'ffprobe: inspect media given on stdin' }),
    )
}

/** The process-wide registry the agent's `cli` tool reads. */
export function cliRegistry(): CliRegistry {
  return singleton('cli-registry', createDefaultCliRegistry)
}
