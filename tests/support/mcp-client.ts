/**
 * The official MCP SDK client connected to a Clockwork app's MCP server with a personal access
 * token, as people's own agents connect.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

export async function connectMcp(baseUrl: string, token: string, name = 'clockwork-test'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/_agent-native/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  )
  return client
}

/**
 * One message text posted to the MCP endpoint as a streamable HTTP client posts it, raw (for
 * messages the SDK's client would not send): the answer's status and text.
 */
export async function postMcp(
  baseUrl: string,
  token: string,
  body: string,
): Promise<{ status: number; text: string }> {
  const res = await fetch(`${baseUrl}/_agent-native/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      authorization: `Bearer ${token}`,
    },
    body,
  })
  return { status: res.status, text: await res.text() }
}
