import type { RouteConfig } from '@react-router/dev/routes'
import { flatRoutes } from '@react-router/fs-routes'

// Tests never live in app/routes, and these patterns keep a stray one from becoming a page.
export default flatRoutes({
  ignoredRouteFiles: ['**/*.test.{ts,tsx}', '**/*.spec.{ts,tsx}', '**/.*'],
}) satisfies RouteConfig
