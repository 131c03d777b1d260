/**
 * The one server process: pages and /_agent-native/* through React Router, Vite
 * middleware with HMR in development, the built app in production. It owns
 * start-up (database, migrations, background services) and shutdown.
 */
import { createServer, type Server } from 'node:http'
import type { ViteDevServer } from 'vite'
import path from 'node:path'
import express, { type ErrorRequestHandler } from 'express'
import type { ServerBuild } from 'react-router'
import { CLIENT_IP_HEADER } from '../auth/auth.ts'
import { openDatabase, setCurrentDatabase, type DbHandle } from '../db/client.ts'
import { migrateDatabase } from '../db/migrate.ts'
import type { Env } from '../env.ts'
import { logger } from '../lib/logger.ts'
import { limitBodies } from './body-limit.ts'
import { internalError, toErrorBody } from '../lib/errors.ts'
import { rejectCrossSite } from './csrf.ts'
import { rejectMalformedPaths } from './bad-urls.ts'
import { reactRouterHandler } from './react-router.ts'
import { securityHeaders } from './security-headers.ts'
import { compressResponses } from './compression.ts'
import { forgetCallersOnWrites } from './forget-callers.ts'
import { createPageCache } from './page-cache.ts'
import { attachMachineEndpoint } from '../machines/endpoint.ts'
import { setInstanceUrl } from '../machines/instance.ts'
import { upgradeAddress } from './upgrade-address.ts'
import { definitionFileValidator } from '../environments/definition/file-validator.ts'
import { installFileValidators } from '../resources/validators.ts'
import { removeDeletedOrganizations } from '../environments/operations/deleted-organizations.ts'

export type BackgroundService = { name: string; stop(): Promise<void> }

/**
 * Where the routes come from. `built`: the React Router build, bundled into the same file as the
 * server (production). `vite`: a Vite dev server that loads the routes, and this module too, in one
 * module graph (see dev.ts), attached to `httpServer` for HMR.
 */
export type RouteSource =
  { kind: 'built'; build: ServerBuild } | { kind: 'vite'; vite: ViteDevServer; httpServer: Server }

export type RunningServer = {
  port: number
  db: DbHandle
  close(): Promise<void>
}

function trustProxySetting(value: string): boolean | number | string {
  if (value === 'true') return true
  if (value === 'false') return false
  if (/^\d+$/.test(value)) return Number(value)
  return value
}

export async function startServer(
  config: Env,
  routes: RouteSource,
  startBackground: () => Promise<BackgroundService[]> = async () => [],
): Promise<RunningServer> {
  const db = await openDatabase({
    url: config.DATABASE_URL,
    pgliteDir: config.PGLITE_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    prepare: config.DATABASE_PREPARED_STATEMENTS,
  })
  await migrateDatabase(db)
  setCurrentDatabase(db)
  // Once per process, before any request or run can write a workspace file.
  installFileValidators([definitionFileValidator])
  // Deleted organisations' folders and snapshots on this instance's disk go (decision 0521).
  const stopRemovingDeleted = await removeDeletedOrganizations(db)

  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', trustProxySetting(config.TRUST_PROXY))
  // better-auth rate-limits by client IP: hand it the address express resolved
  // (the socket, or the forwarded one from a trusted proxy), never a client's claim.
  app.use((req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? 'unknown'
    next()
  })
  const production = config.NODE_ENV === 'production'
  const https = (config.APP_URL ?? '').startsWith('https:')
  app.use(securityHeaders({ https, development: !production }))
  app.use(rejectMalformedPaths)
  // Before anything reads a body: refuse oversize bodies, then forged state changes.
  app.use(limitBodies())
  app.use(rejectCrossSite())
  // Callers are cached for a few seconds; a write may change who someone is (forget-callers.ts).
  app.use(forgetCallersOnWrites())
  app.use(compressResponses())

  const httpServer = routes.kind === 'vite' ? routes.httpServer : createServer()
  httpServer.on('request', app)
  // Connected machines: the token is checked in the upgrade handler, before a socket exists.
  const machineEndpoint = attachMachineEndpoint(httpServer, (req) => upgradeAddress(app, req))

  if (routes.kind === 'built') {
    const client = path.resolve(routes.build.assetsBuildDirectory)
    app.use('/assets', express.static(path.join(client, 'assets'), { immutable: true, maxAge: '1y' }))
    // Other static files (favicon, fonts) all have an extension; pages, the API and React Router's
    // `.data` requests skip the file-system lookup express.static would make for every request.
    const files = express.static(client, { maxAge: '1h' })
    app.use((req, res, next) => (/\.(?!data$)\w+$/.test(req.path) ? files(req, res, next) : next()))
    const pageCache = config.PAGE_CACHE ? createPageCache(db.db) : undefined
    app.all('/{*splat}', reactRouterHandler(routes.build, 'production', pageCache))
  } else {
    const { vite } = routes
    app.use(vite.middlewares)
    app.all(
      '/{*splat}',
      reactRouterHandler(
        () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>,
        'development',
      ),
    )
  }

  app.use(answerUnhandled)

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject)
    httpServer.listen(config.PORT, config.HOST, resolve)
  })
  const address = httpServer.address()
  const port = typeof address === 'object' && address ? address.port : config.PORT
  const reachableHost = ['0.0.0.0', '::'].includes(config.HOST) ? '127.0.0.1' : config.HOST
  setInstanceUrl(config.INSTANCE_URL ?? `http://${reachableHost}:${port}`)
  const background = await startBackground()
  // The URL alone at the end of the line, so terminals make it clickable.
  logger.info({ port, db: db.kind, mode: config.NODE_ENV }, `Clockwork is ready at ${openUrl(config, port)}`)

  return {
    port,
    db,
    close: async () => {
      machineEndpoint.close()
      await stopAccepting(httpServer)
      for (const service of background) await service.stop()
      await stopRemovingDeleted()
      if (routes.kind === 'vite') await routes.vite.close()
      await db.close()
      setCurrentDatabase(undefined)
    },
  }
}

/** The last resort: a JSON 500 (never an HTML stack page) for anything a route let escape. */
const answerUnhandled: ErrorRequestHandler = (err, req, res, _next) => {
  logger.error({ err, path: req.path }, 'unhandled error in request')
  if (res.headersSent) return void req.socket.destroy()
  res.status(500).set('cache-control', 'no-store').json(toErrorBody(internalError()))
}

/** Where to point a browser: APP_URL when set (auth only accepts that origin), else this machine. */
function openUrl(config: Env, port: number): string {
  if (config.APP_URL) return config.APP_URL
  const wildcard = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(config.HOST)
  const host = wildcard ? 'localhost' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST
  return `http://${host}:${port}`
}

/** Stops taking connections, lets in-flight requests finish, drops idle keep-alives. */
function stopAccepting(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeIdleConnections()
    // Streams (chat) may hold a socket; give them a moment, then cut.
    setTimeout(() => server.closeAllConnections(), 2_000).unref()
  })
}
