/**
 * The per-organisation limit on environment records (decision 0461). Any member creates one by
 * writing a definition and using it, and each keeps a folder (and perhaps a snapshot) on the
 * server's disk until deleted, so their number must be finite whatever a member writes.
 */
import { quotaExceeded } from '../lib/errors.ts'

/** Far more than a team's projects need; few enough that their folders cannot fill a disk unseen. */
export const MAX_ENVIRONMENTS_PER_ORG = 200

/**
 * Names not counted: each member's own `scratch` (one per member, bounded by membership) and a job
 * run's scratch folder (`scratch:<run>`, removed when its run ends).
 */
export const isScratchName = (name: string) => name === 'scratch' || name.startsWith('scratch:')

export const environmentsFull = () =>
  quotaExceeded(
    `This organisation already has ${MAX_ENVIRONMENTS_PER_ORG} environments, its limit: delete one ` +
      '(its owner, or an admin for a shared one, on its Environments page) to make room',
  )
