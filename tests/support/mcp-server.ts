/**
 * A real MCP server for tests: the official SDK's server side over streamable HTTP (stateless,
 * answering in server-sent events as most servers do), on a real port on 127.0.0.1. It offers
 * `lookup_docs` (echoes what it found for a query) and `always_fails` (a tool-level error), and can
 * require a bearer token. Every tool call is recorded. With `reflect` it is also a careless debug
 * server that hands its request headers back: in `whoami`'s description, result and structured
 * content, in `whoami_fails`'s error, in the HTTP 500 that `whoami_breaks` gets, in the HTTP 500
 * every request to `<url>/broken` gets, and as the name of a tool (the bare bearer token).
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { expect } from 'vitest'
import { z } from 'zod'
import type { ApiClient } from './api-client.ts'

export type TestMcpServer = {
  /** e.g. `http://127.0.0.1:41234/mcp` */
  url: string
  port: number
  calls: { tool: string; args: Record<string, unknown>; authorization?: string }[]
  close(): Promise<void>
}

type Reflected = { authorization?: string; 'x-api-key'?: string }

function build(calls: TestMcpServer['calls'], authorization?: string, reflected?: Reflected) {
  const server = new McpServer({ name: 'test-docs', version: '1.0.0' })
  if (reflected) reflectingTools(server, reflected)
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

/** The debug tools: each hands back the headers it was called with, the bare bearer token too. */
function reflectingTools(server: McpServer, headers: Reflected) {
  const bare = headers.authorization?.replace(/^Bearer /, '')
  server.registerTool(
    'whoami',
    {
      description: `Says who is calling (debug build; this request came with ${headers.authorization}).`,
      inputSchema: {},
      outputSchema: { headers: z.record(z.string(), z.string()), token: z.string() },
    },
    async () => ({
      content: [{ type: 'text', text: `Request headers: ${JSON.stringify(headers)}; token ${bare}` }],
      structuredContent: { headers: { ...headers }, token: bare ?? '' },
    }),
  )
  server.registerTool(
    'whoami_fails',
    { description: 'Fails, naming the caller.', inputSchema: {} },
    async () => ({
      isError: true,
      content: [
        { type: 'text', text: `${headers['x-api-key']} may not ask that (sent ${headers.authorization})` },
      ],
    }),
  )
  if (bare)
    server.registerTool(bare, { description: 'Named after its caller.', inputSchema: {} }, async () => ({
      content: [{ type: 'text', text: 'You found the tool named after you.' }],
    }))
  server.registerTool(
    'whoami_breaks',
    { description: 'Breaks the transport.', inputSchema: {} },
    async () => ({
      content: [],
    }),
  )
}

const callsTool = (body: unknown, name: string) =>
  (body as { method?: string; params?: { name?: string } } | undefined)?.method === 'tools/call' &&
  (body as { params: { name?: string } }).params.name === name

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  return text ? JSON.parse(text) : undefined
}

export async function startTestMcpServer(
  options: { token?: string; reflect?: boolean } = {},
): Promise<TestMcpServer> {
  const calls: TestMcpServer['calls'] = []
  const http = createServer(async (req, res) => {
    if (!req.url?.startsWith('/mcp')) return void res.writeHead(404).end()
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { 'content-type': 'application/json' })
      return void res.end(JSON.stringify({ error: 'unauthorized' }))
    }
    // Stateless: no GET stream for server-initiated messages, one server per request.
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end()
    const body = await readJson(req)
    const reflected: Reflected | undefined = options.reflect
      ? JSON.parse(
          JSON.stringify({ authorization: req.headers.authorization, 'x-api-key': req.headers['x-api-key'] }),
        )
      : undefined
    if (reflected && (req.url === '/mcp/broken' || callsTool(body, 'whoami_breaks'))) {
      res.writeHead(500, { 'content-type': 'text/plain' })
      return void res.end(`upstream refused ${JSON.stringify(reflected)}`)
    }
    const server = build(calls, req.headers.authorization, reflected)
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    res.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    await transport.handleRequest(req, res, body)
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

/**
 * Registers an organisation MCP server as `admin`, its `Authorization: Bearer` token stored first as
 * the organisation secret `secret`; `headers` adds more. Answers the server's id.
 */
export async function addOrgMcpServer(
  admin: ApiClient,
  server: { name: string; url: string; secret: string; token: string; headers?: Record<string, unknown> },
): Promise<string> {
  const saved = await admin.put(
    `/_agent-native/secrets/org/${server.secret}`,
    JSON.stringify({ value: server.token }),
    { 'content-type': 'application/json' },
  )
  expect(saved.status).toBe(200)
  const added = await admin.post('/_agent-native/mcp-servers', {
    name: server.name,
    url: server.url,
    scope: 'org',
    headers: { Authorization: { bearer: server.secret }, ...server.headers },
  })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  return added.body.server.id
}
