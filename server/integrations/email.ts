/**
 * Email for integrations (run results, alerts): the SMTP transport of server/lib/mail.ts, which
 * better-auth (a lower layer) shares for password resets, verification and invitations.
 */
export { emailEnabled, sendEmail, type Mail } from '../lib/mail.ts'
