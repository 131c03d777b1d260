/** The CLIs the agent may call, by name. The `cli` tool's description comes from `describe()`. */
import type { CliAdapter } from './adapter.ts'

export type CliDescription = { name: string; description: string; available: boolean }

export class CliRegistry {
  private readonly adapters = new Map<string, CliAdapter>()

  /** Adds (or replaces) an adapter under its name. */
  register(adapter: CliAdapter): this {
    this.adapters.set(adapter.name, adapter)
    return this
  }

  get(name: string): CliAdapter | undefined {
    return this.adapters.get(name)
  }

  async describe(): Promise<CliDescription[]> {
    return Promise.all(
      [...this.adapters.values()].map(async (a) => ({
        name: a.name,
        description: a.description,
        available: await a.isAvailable(),
      })),
    )
  }
}
