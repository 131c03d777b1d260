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
