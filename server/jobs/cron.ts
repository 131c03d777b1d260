/**
 * The cron helpers live in server/cron/ (a leaf every domain may use); this name is kept because
 * docs/architecture.md ("What a job is") and older notes point here.
 */
export * from '../cron/cron.ts'
