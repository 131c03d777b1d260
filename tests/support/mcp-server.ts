/**
 * A real MCP server for tests: the official SDK's server side over streamable HTTP (stateless,
 * answering in server-sent events as most servers do), on a real port on 127.0.0.1. It offers
 * `lookup_docs` (echoes what it found for a query) and `always_fails` (a tool-level error), and can
 * require a bearer token. Every tool call is recorded.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'

export type TestMcpServer = {
  /** e.g. `http://127.0.0.1:41234/mcp` */
  url: string
  port: number
  calls: { tool: string; args: Record<string, unknown>; authorization?: string }[]
  close(): Promise<void>
}

function build(calls: TestMcpServer['calls'], authorization?: string) {
  const server = new McpServer({ name: 'test-docs', version: '1.0.0' })
  server.registerTool(
    'lookup_docs',
    {
      description: 'Looks a topic up in the team handbook and returns the matching paragraph.',
      inputSchema: { query: z.string().describe('What to look up') },
    },
    async ({ query }) => {
      calls.push({ tool: 'lookup_docs', args: { query }, authorization })
      return { content: [{ type: 'text', text: `Handbook on ${query}: deploys happen on Tuesdays.` }] }
    },
  )
  server.registerTool(
    'always_fails',
    { description: 'A tool that reports an error.', inputSchema: {} },
    async () => {
      calls.push({ tool: 'always_fails', args: {}, authorization })
      return { isError: true, content: [{ type: 'text', text: 'the handbook is being reindexed' }] }
    },
  )
  return server
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  return text ? JSON.parse(text) : undefined
}

export async function startTestMcpServer(options: { token?: string } = {}): Promise<TestMcpServer> {
  const calls: TestMcpServer['calls'] = []
  const http = createServer(async (req, res) => {
    if (!req.url?.startsWith('/mcp')) return void res.writeHead(404).end()
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { 'content-type': 'application/json' })
      return void res.end(JSON.stringify({ error: 'unauthorized' }))
    }
    // Stateless: no GET stream for server-initiated messages, one server per request.
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end()
    const server = build(calls, req.headers.authorization)
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    res.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    await transport.handleRequest(req, res, await readJson(req))
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const port = (http.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    calls,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections()
        http.close(() => resolve())
      }),
  }
}
