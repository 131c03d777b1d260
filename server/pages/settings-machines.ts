/**
 * Settings → Machines: the person's connected machines and tokens, and the connect command.
 * Tokens are made and revoked through the machines domain; a new token is in the answer once.
 */
import type { Caller } from '../auth/caller.ts'
import { env } from '../env.ts'
import { badRequest } from '../lib/errors.ts'
import { disconnectMachine, listMachines, revokeToken, type MachineSummary } from '../machines/service.ts'
import { findRun } from '../runs/store.ts'
import { findOwnThread } from '../runs/threads.ts'
import { createMachineToken } from '../machines/tokens.ts'
import { runForm } from './forms.ts'

export async function loadMachinesPage(caller: Caller, request: Request) {
  const { machines, tokens } = await listMachines(caller.userId)
  const described = await Promise.all(
    machines.map(async (m) => ({ ...m, uses: await Promise.all(m.runs.map((r) => describeUse(caller, r))) })),
  )
  return { machines: described, tokens, origin: env().APP_URL ?? new URL(request.url).origin }
}

/** A run or chat turn that used a machine, as the page names and links it. */
async function describeUse(caller: Caller, use: MachineSummary['runs'][number]) {
  const base = { key: use.runId, lastUsedAt: use.lastUsedAt, stopped: use.stopped }
  const [threadId, turn] = use.runId.split('/')
  if (turn) {
    const thread = await findOwnThread(
      { userId: caller.userId, orgId: caller.orgId, kind: 'chat' },
      threadId!,
    )
    return { ...base, kind: 'chat' as const, label: thread ? `Chat: ${thread.title}` : 'A chat', href: null }
  }
  const run = await findRun(use.runId)
  if (!run) return { ...base, kind: 'run' as const, label: `Run ${use.runId}`, href: null }
  return {
    ...base,
    kind: 'run' as const,
    label: `Run ${run.id} (${run.status})`,
    href: `/jobs/${run.jobId}/runs/${run.id}`,
  }
}

/**
 * Form intents: create-token (answers the token once, with the machine it names), revoke-token
 * (also ends what it connected) and disconnect (a machine).
 */
export async function handleMachinesAction(caller: Caller, request: Request) {
  return runForm(request, async ({ intent = '', ...fields }) => {
    switch (intent) {
      case 'create-token': {
        const { token, summary } = await createMachineToken(caller.userId, { name: fields.name ?? '' })
        return { token, machine: { id: summary.machineId, label: summary.name } }
      }
      case 'revoke-token':
        await revokeToken(caller.userId, fields.id ?? '')
        return { token: null }
      case 'disconnect':
        await disconnectMachine(caller.userId, fields.id ?? '')
        return { token: null }
      default:
        throw badRequest(`Unknown intent "${intent}"`, 'intent')
    }
  })
}
