/**
 * What a harness run gets from the agent: the model access the run is entitled to (resolved by the
 * same rules as a builtin run: personal, org or deployment key), priced by the same table, under
 * the same budgets; and what it works with (the environment, approved skills, MCP endpoints).
 */
import type { Caller } from '../auth/caller.ts'
import { anthropicBaseUrl } from '../env.ts'
import { approvedSkillContent } from '../environments/skills/skills.ts'
import type { HarnessAdapter } from '../harness/adapter.ts'
import type { ModelGrant } from '../harness/endpoint.ts'
import { harnessAdapter } from '../harness/registry.ts'
import type { McpEndpoint } from '../integrations/mcp-client.ts'
import { endpointOf, serversForAgent } from '../integrations/mcp-service.ts'
import { badRequest } from '../lib/errors.ts'
import { orgBudgetRefusal, runBudgetRefusal, type RunCap, type SpendRecord } from '../runs/budget.ts'
import { deploymentBudgetRefusal } from '../runs/deployment-budget.ts'
import type { ResolvedModel } from './model.ts'
import { estimateCostUsd } from './pricing.ts'

/** The adapter a job or a chat names. @throws 400 `harness` for an unknown one or a model it cannot use. */
export function adapterFor(id: string, resolved: Pick<ResolvedModel, 'choice'>): HarnessAdapter {
  const adapter = harnessAdapter(id)
  if (!adapter) throw badRequest(`harness: no harness named ${id} on this server`, 'harness')
  if (resolved.choice.provider !== 'anthropic') {
    throw badRequest(
      `harness: ${adapter.label} needs an Anthropic model; AGENT_MODEL is ${resolved.choice.provider}:${resolved.choice.modelId}`,
      'harness',
    )
  }
  return adapter
}

/**
 * @param budget.record the job run (a harness job's, or the builtin run that calls run_harness) or
 *   chat turn whose spending the harness's is. Each call on the organisation's or the deployment's
 *   key writes the spending so far to that record before the budget is read, as a builtin run's
 *   steps do, so what the record holds already is not counted twice.
 * @param budget.spentBeforeUsd what the run or turn that starts the harness (run_harness) had spent
 *   in its finished steps: the budgets count it with the harness's calls.
 */
export function modelGrant(
  resolved: Pick<ResolvedModel, 'choice' | 'keySource' | 'apiKey' | 'fetch'>,
  budget: { orgId: string; cap: RunCap | null; record?: SpendRecord; spentBeforeUsd?: number },
): ModelGrant {
  const { orgId, record } = budget
  const runId = record?.kind === 'run' ? record.id : undefined
  const before = budget.spentBeforeUsd ?? 0
  return {
    baseURL: anthropicBaseUrl(),
    apiKey: resolved.apiKey ?? '',
    fetch: resolved.fetch,
    modelId: resolved.choice.modelId,
    price: (modelId, usage) => estimateCostUsd({ provider: 'anthropic', modelId }, usage),
    cap: budget.cap,
    spentBeforeUsd: before,
    // The organisation's monthly budget binds every call on its key, not only the run's start, and
    // the server's daily budget every call on the deployment's (decision 0455).
    admit:
      resolved.keySource === 'org'
        ? (runSpentUsd, reserveUsd) =>
            runId
              ? runBudgetRefusal(orgId, runId, before + runSpentUsd, reserveUsd)
              : orgBudgetRefusal(orgId, undefined, before + runSpentUsd)
        : resolved.keySource === 'deployment'
          ? (runSpentUsd, reserveUsd) =>
              deploymentBudgetRefusal(record ?? null, before + runSpentUsd, undefined, reserveUsd)
          : undefined,
  }
}

/** The MCP servers the job (or chat) may use, with their headers; those that cannot be used are left out. */
export async function harnessMcp(caller: Caller, only: readonly string[] | null): Promise<McpEndpoint[]> {
  const { servers } = await serversForAgent(caller, only)
  const endpoints = await Promise.all(servers.map((row) => endpointOf(row).catch(() => null)))
  return endpoints.filter((e): e is McpEndpoint => e !== null)
}

/** The environment's approved self-made skills (its definition names them), with their text. */
export async function environmentSkills(
  orgId: string,
  skills: readonly unknown[],
): Promise<{ name: string; content: string }[]> {
  const names = skills.filter((s): s is string => typeof s === 'string')
  const found = await Promise.all(
    names.map((name) =>
      approvedSkillContent(orgId, name)
        .then((content) => ({ name, content }))
        .catch(() => null),
    ),
  )
  return found.filter((s): s is { name: string; content: string } => s !== null)
}
