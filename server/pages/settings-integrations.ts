/**
 * Server side of Settings → Integrations (app/routes/_app.settings.integrations.tsx): the MCP
 * servers the person can use (theirs and the org's) with their last status and tool count, and
 * the page's intents: add, test the connection, remove. The same service as the HTTP API.
 */
import { isOrgAdmin, type Caller } from '../access/caller.ts'
import {
  createMcpServer,
  listMcpServers,
  removeMcpServer,
  testMcpServer,
} from '../integrations/mcp-service.ts'
import { badRequest } from '../lib/errors.ts'
import { runForm } from './forms.ts'

export async function loadIntegrationsPage(caller: Caller) {
  return { servers: await listMcpServers(caller), isAdmin: isOrgAdmin(caller), orgName: caller.orgName }
}

/** The headers field is JSON text on the form; an empty box means none. */
function parseHeaders(text: string | undefined): unknown {
  if (!text?.trim()) return {}
  try {
    return JSON.parse(text)
  } catch {
    throw badRequest(
      'headers: must be a JSON object, e.g. {"Authorization": {"bearer": "DOCS_TOKEN"}}',
      'headers',
    )
  }
}

/** intents: `add` (name, url, scope, headers), `test` (id), `remove` (id). */
export async function handleIntegrationsAction(caller: Caller, request: Request) {
  return runForm(request, async (form) => {
    const intent = form.intent ?? ''
    if (intent === 'add') {
      return createMcpServer(caller, {
        name: form.name,
        url: form.url,
        scope: form.scope || 'personal',
        headers: parseHeaders(form.headers),
      })
    }
    if (intent === 'test') return testMcpServer(caller, form.id ?? '')
    if (intent === 'remove') return removeMcpServer(caller, form.id ?? '')
    throw badRequest(`intent: unknown action "${intent}"`, 'intent')
  })
}
