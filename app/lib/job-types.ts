/**
 * The shape of a job as the pages use it: the server's own types, imported as types only (erased
 * at build time, so no server code reaches the browser).
 */
export type { JobView as JobLike } from '#server/jobs/views.ts'
export type { JobRow } from '#server/pages/jobs-list.ts'
export type { ListedOffer } from '#server/jobs/offer-store.ts'
export type { JobAuditEntry as AuditEntry } from '#server/jobs/service.ts'
export type { JobFormField, JobFormKey, JobFormSpec } from '#server/jobs/fields.ts'
