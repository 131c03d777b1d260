import { sql } from 'drizzle-orm'
import { getDbHandle } from '../db/client.ts'
import { json } from './respond.ts'
import { queryRows } from '../db/sql.ts'

const PING_TIMEOUT_MS = 3_000

/** 200 when the database answers a trivial query in time, else 503. */
export async function checkHealth(): Promise<Response> {
  let kind: string = 'unknown'
  try {
    const handle = getDbHandle()
    kind = handle.kind
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('database ping timed out')), PING_TIMEOUT_MS)
    })
    await Promise.race([queryRows(handle.db, sql`select 1`), timeout]).finally(() => clearTimeout(timer))
    return json({ ok: true, db: kind })
  } catch {
    return json(
      { ok: false, db: kind, error: { code: 'unavailable', message: 'Database unreachable' } },
      { status: 503 },
    )
  }
}
