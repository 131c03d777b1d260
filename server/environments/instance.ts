/**
 * Where this instance keeps environment folders: its identity is the host and the absolute
 * ENVIRONMENTS_DIR (two processes on one host sharing a folder are one place; two folders on one
 * host are two), and its address is the one machines forwarding uses (INSTANCE_URL, else this
 * host and port).
 */
import { createHash } from 'node:crypto'
import { hostname } from 'node:os'
import { resolve } from 'node:path'
import { env } from '../env.ts'
import { instanceUrl } from '../machines/instance.ts'

/** The folder holding this instance's environment folders. */
export const environmentsDir = () => resolve(env().ENVIRONMENTS_DIR)

export function here(): { instanceId: string; instanceUrl: string | null } {
  const dir = createHash('sha256').update(environmentsDir()).digest('hex').slice(0, 8)
  return { instanceId: `${hostname()}:${dir}`, instanceUrl: instanceUrl() || null }
}
