import { requireCaller } from '#server/auth/caller.ts'
import { runPersonCommand } from '#server/environments/browse/browse.ts'
import { methodNotAllowed, readJsonBody } from '#server/http/request.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].environments.$id_.commands'

// POST /_agent-native/environments/<id or name>/commands?scope= { command, timeoutSeconds? }
//   → { environmentId, decision, rule, result: { stdout, stderr, exitCode, durationMs, … } };
//   a command the policy denies → 403 command_denied (audited)
export const action = ({ request, params }: Route.ActionArgs) =>
  api(async () => {
    if (request.method !== 'POST') return methodNotAllowed(request, ['POST'])
    return runPersonCommand(
      await requireCaller(request),
      params.id,
      await readJsonBody(request),
      Object.fromEntries(new URL(request.url).searchParams),
    )
  })
