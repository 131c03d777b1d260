/**
 * Settings → Machines: the person's connected machines and tokens, and the connect command.
 * Tokens are made and revoked through the machines domain; a new token is in the answer once.
 */
import type { Caller } from '../auth/caller.ts'
import { env } from '../env.ts'
import { badRequest } from '../lib/errors.ts'
import { listMachines } from '../machines/service.ts'
import { createMachineToken, revokeMachineToken } from '../machines/tokens.ts'
import { readForm, runIntent } from './forms.ts'

export async function loadMachinesPage(caller: Caller, request: Request) {
  const { machines, tokens } = await listMachines(caller.userId)
  return { machines, tokens, origin: env().APP_URL ?? new URL(request.url).origin }
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
