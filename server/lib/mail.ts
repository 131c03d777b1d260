/**
 * The SMTP transport (nodemailer), configured by SMTP_URL. It lives this low so better-auth
 * (server/auth) can send password-reset and verification mail; everything else sends through
 * server/integrations/email.ts, which composes the messages.
 */
import type { Transporter } from 'nodemailer'
import { env } from '../env.ts'

export type Mail = { to: string | string[]; subject: string; text: string }

let cached: { url: string; transport: Transporter } | undefined

/**
 * nodemailer is imported by the first mail rather than with this module: it is about 40 files that
 * every server process (each test app's among them) loaded at start, most of them never sending.
 */
async function transport(url: string): Promise<Transporter> {
  if (cached?.url === url) return cached.transport
  const { default: nodemailer } = await import('nodemailer')
  if (cached?.url !== url) cached = { url, transport: nodemailer.createTransport(url) }
  return cached.transport
}

/** Whether SMTP_URL is set: without it no mail is sent and the UI says email is off. */
export function emailEnabled(): boolean {
  return Boolean(env().SMTP_URL)
}

/**
 * Sends one plain-text mail. Throws when SMTP is not configured or the server refuses it, so
 * callers decide whether that is a recorded failure (delivery) or a logged one (alerts).
 */
export async function sendEmail(mail: Mail): Promise<void> {
  const { SMTP_URL, SMTP_FROM } = env()
  if (!SMTP_URL) throw new Error('Email is off: SMTP_URL is not set')
  const smtp = await transport(SMTP_URL)
  await smtp.sendMail({ from: SMTP_FROM, to: mail.to, subject: mail.subject, text: mail.text })
}
