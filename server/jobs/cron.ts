/**
 * The cron helpers live in server/cron/ (a leaf every domain may use); this name is kept because
 * shared/DESIGN.md and older notes point here.
 */
export * from '../cron/cron.ts'
