/**
 * better-auth's mail: password reset, email verification and invitations, sent through the SMTP
 * transport (server/lib/mail.ts) when SMTP_URL is set. Without it, reset and verification are off
 * (/forgot-password says so) and invitations are shared as a copied link only.
 */
import { onCredentialsRecovered } from '../accounts/service.ts'
import { notePasswordReset } from './admin-set-passwords.ts'
import { env } from '../env.ts'
import { logger } from '../lib/logger.ts'
import { emailEnabled, sendEmail } from '../lib/mail.ts'

type MailUser = { email: string; name: string }

const origin = () => env().APP_URL ?? `http://localhost:${env().PORT}`

/** The better-auth options that send mail, or plain email + password when email is off. */
export function authMail() {
  const base = {
    enabled: true,
    minPasswordLength: 8,
    autoSignIn: true,
    // A reset, by mail or with an admin's link, is the remedy for a stolen password or session:
    // every session signed in before it ends (better-auth leaves them by default; decision 0522).
    revokeSessionsOnPasswordReset: true,
    // By mail or by an admin's link (reset-links.ts): the person's access tokens end with it, and
    // which of the two it was decides the invitations the account may accept (decision 0508).
    onPasswordReset: async ({ user }: { user: { id: string } }) => {
      await onCredentialsRecovered(user.id)
      await notePasswordReset(user.id)
    },
  } as const
  if (!emailEnabled()) return { emailAndPassword: base }
  return {
    emailAndPassword: {
      ...base,
      sendResetPassword: async ({ user, url }: { user: MailUser; url: string }) =>
        sendEmail({
          to: user.email,
          subject: 'Reset your Clockwork password',
          text: `Hello ${user.name},\n\nOpen this link to choose a new password (valid for an hour):\n${url}\n\nIf you did not ask for it, ignore this mail.`,
        }),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      sendVerificationEmail: async ({ user, url }: { user: MailUser; url: string }) =>
        sendEmail({
          to: user.email,
          subject: 'Confirm your email address for Clockwork',
          text: `Hello ${user.name},\n\nOpen this link to confirm your address:\n${url}`,
        }),
    },
  }
}

type Invitation = {
  id: string
  email: string
  role: string
  organization: { name: string }
  inviter: { user: MailUser }
}

/** Mails an invitation when email is on; the copy-link flow works either way, so a failure is only logged. */
export async function sendInvitationMail(data: Invitation): Promise<void> {
  if (!emailEnabled()) return
  const link = `${origin()}/accept-invitation/${data.id}`
  await sendEmail({
    to: data.email,
    subject: `${data.inviter.user.name} invited you to ${data.organization.name} on Clockwork`,
    text: `${data.inviter.user.name} (${data.inviter.user.email}) invited you to join ${data.organization.name} as ${data.role}.\n\nAccept: ${link}`,
  }).catch((err: unknown) => logger.error({ err, invitationId: data.id }, 'could not mail an invitation'))
}
