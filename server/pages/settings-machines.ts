/**
 * Settings → Machines: the person's connected machines and tokens, and the connect command.
 * Tokens are made and revoked through the machines domain; a new token is in the answer once.
 */
import type { Caller } from '../auth/caller.ts'
import { env } from '../env.ts'
import { badRequest } from '../lib/errors.ts'
import { listMachines, type MachineSummary } from '../machines/service.ts'
import { findRun } from '../runs/store.ts'
import { findOwnThread } from '../runs/threads.ts'
import { createMachineToken, revokeMachineToken } from '../machines/tokens.ts'
import { readForm, runIntent } from './forms.ts'

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

/** Form intents: create-token (answers the token once) and revoke-token. */
export async function handleMachinesAction(caller: Caller, request: Request) {
  const { intent = '', ...fields } = await readForm(request)
  return runIntent(intent, async () => {
    switch (intent) {
      case 'create-token':
        return { token: (await createMachineToken(caller.userId, { name: fields.name ?? '' })).token }
      case 'revoke-token':
        await revokeMachineToken(caller.userId, fields.id ?? '')
        return { token: null }
      default:
        throw badRequest(`Unknown intent "${intent}"`, 'intent')
    }
  })
}
