/**
 * The SMTP transport (nodemailer), configured by SMTP_URL. It lives this low so better-auth
 * (server/auth) can send password-reset and verification mail; everything else sends through
 * server/integrations/email.ts, which composes the messages.
 */
import nodemailer, { type Transporter } from 'nodemailer'
import { env } from '../env.ts'

export type Mail = { to: string | string[]; subject: string; text: string }

let cached: { url: string; transport: Transporter } | undefined

function transport(url: string): Transporter {
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
  await transport(SMTP_URL).sendMail({ from: SMTP_FROM, to: mail.to, subject: mail.subject, text: mail.text })
}
