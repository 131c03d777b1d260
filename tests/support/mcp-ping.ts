/** One MCP `ping` with `token`, from the client at `ip` (behind a trusted proxy): its answer. */
export async function mcpPing(baseUrl: string, token: string, ip: string) {
  const res = await fetch(`${baseUrl}/_agent-native/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'x-forwarded-for': ip,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  })
  const body = await res.text()
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body }
}
