import { getAuthTables } from 'better-auth/db'
import { organization as organizationPlugin } from 'better-auth/plugins'
import { getTableColumns } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import { describe, expect, it } from 'vitest'
import * as authSchema from './auth.ts'

// better-auth owns these tables' shape; an upgrade that adds a field must fail here, not at sign-up.
const expected = getAuthTables({
  plugins: [organizationPlugin()],
  user: { additionalFields: { timezone: { type: 'string', required: false } } },
  rateLimit: { storage: 'database' },
})

describe('auth tables match better-auth', () => {
  it.each(Object.values(expected).map((t) => [t.modelName, t] as const))('%s', (modelName, table) => {
    const drizzleTable = (authSchema as Record<string, unknown>)[modelName] as PgTable | undefined
    expect(drizzleTable, `table ${modelName}`).toBeDefined()
    const columns = getTableColumns(drizzleTable!)
    for (const [field, definition] of Object.entries(table.fields)) {
      const column = columns[definition.fieldName ?? field]
      expect(column, `${modelName}.${field}`).toBeDefined()
      if (definition.required) expect(column!.notNull, `${modelName}.${field} not null`).toBe(true)
    }
  })
})
