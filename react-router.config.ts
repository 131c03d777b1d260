import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  // Opt in to v8 behaviour now, so the upgrade to React Router 8 (Node 22+) is a version bump.
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config
