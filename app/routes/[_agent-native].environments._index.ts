import { requireCaller } from '#server/auth/caller.ts'
import { listEnvironments } from '#server/environments/browse/browse.ts'
import { orgDiskUse } from '#server/environments/org-disk.ts'
import { api } from '#server/http/respond.ts'
import type { Route } from './+types/[_agent-native].environments._index'

// GET /_agent-native/environments → { environments: [{ id, name, scope, status, sizeBytes, … }],
// disk: { usedBytes, limitBytes } } (the organisation's environments together, ORG_MAX_DISK_MB)
export const loader = ({ request }: Route.LoaderArgs) =>
  api(async () => {
    const caller = await requireCaller(request)
    const [environments, disk] = await Promise.all([listEnvironments(caller), orgDiskUse(caller.orgId)])
    return { environments, disk }
  })
