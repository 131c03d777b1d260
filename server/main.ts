/**
 * The production entry (`npm start`, the Dockerfile, the systemd unit). `npm run build` bundles it
 * with the React Router build as one SSR build (vite.config.ts), so the routes and this process
 * share every server module: one `HttpError`, one copy of each module's state.
 */
import './production-mode.ts'
// Before the routes: the modules they import read the environment as they load (the logger its level).
import './lib/load-env.ts'
import * as build from 'virtual:react-router/server-build'
import { runServerProcess } from './start.ts'

await runServerProcess({ kind: 'built', build })
