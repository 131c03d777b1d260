import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  // `build` for `npm run build`; the tests build the routes alone elsewhere (tests/support/routes-build.ts).
  buildDirectory: process.env.CLOCKWORK_ROUTES_BUILD_DIR ?? 'build',
  // Every route in the browser's manifest from the first page (a file the browser caches), not
  // discovered by asking /__manifest: a link followed while the server is down or the network
  // dropped then fails in the app ("Can't reach Clockwork"), not in React Router (decision 0529).
  routeDiscovery: { mode: 'initial' },
  // Opt in to v8 behaviour now, so the upgrade to React Router 8 (Node 22+) is a version bump.
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    // Not yet, said explicitly (which also silences the warning on every start): loaders read
    // request.url for sign-in redirects and would see `.data` URLs, and the custom server loads
    // the dev build with ssrLoadModule. Both are changes to make with the v8 upgrade itself.
    v8_passThroughRequests: false,
    v8_viteEnvironmentApi: false,
  },
} satisfies Config
