/** `npm run db:migrate`: applies committed migrations, then exits (release command on deploys). */
import { env } from '../env.ts'
import { openDatabase } from './client.ts'
import { migrateDatabase } from './migrate.ts'

const config = env()
const handle = await openDatabase({
  url: config.DATABASE_URL,
  pgliteDir: config.PGLITE_DIR,
  prepare: config.DATABASE_PREPARED_STATEMENTS,
})
try {
  await migrateDatabase(handle)
  console.log(`Migrations applied (${handle.kind}).`)
} finally {
  await handle.close()
}
