import { useState } from 'react'
import { AuthLink, FormAlert, SubmitButton } from '#app/components/auth-form.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { authClient } from '#app/lib/auth-client.ts'
import { emailEnabled } from '#server/lib/mail.ts'
import type { Route } from './+types/_auth.forgot-password'

export const meta = () => [{ title: 'Forgot password · Clockwork' }]

/** Where better-auth sends the person after checking the mailed link; it appends `?token=` or `?error=`. */
const RESET_PAGE = '/reset-password'

export function loader() {
  return { emailEnabled: emailEnabled() }
}

/**
 * Asks better-auth to mail a reset link. The answer is the same whether or not an account
 * exists, so the page never tells who has one.
 */
export default function ForgotPassword({ loaderData }: Route.ComponentProps) {
  const { emailEnabled } = loaderData
  const [pending, setPending] = useState(false)
  const [sent, setSent] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const email = String(new FormData(event.currentTarget).get('email') ?? '')
    setPending(true)
    setError(null)
    const result = await authClient.requestPasswordReset({ email, redirectTo: RESET_PAGE })
    setPending(false)
    if (result.error) setError(result.error.message ?? 'That did not work. Try again in a minute.')
    else setSent(email)
  }

  return (
    <Card className="p-6">
      <h1 className="text-lg font-semibold">Reset your password</h1>
      {!emailEnabled ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          Email is off on this server, so it cannot mail you a reset link. Ask an admin or owner of your
          organisation: under <strong>Settings → Members</strong> they can make you a one-time reset link (
          <strong>Reset link</strong> next to your name) and send it to you.
        </p>
      ) : sent ? (
        <p role="status" className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          If an account exists for <strong>{sent}</strong>, we sent it a link to choose a new password. The
          link works for an hour.
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            Enter your email and we will send you a link to choose a new password.
          </p>
          <form method="post" className="mt-6 space-y-4" onSubmit={onSubmit}>
            <Field label="Email">
              {({ id }) => (
                <Input id={id} name="email" type="email" autoComplete="email" required autoFocus />
              )}
            </Field>
            <FormAlert error={error} />
            <SubmitButton pending={pending} pendingLabel="Sending…">
              Send reset link
            </SubmitButton>
          </form>
        </>
      )}
      <p className="mt-6 text-center text-sm text-stone-600 dark:text-stone-400">
        Remembered it? <AuthLink to="/sign-in">Sign in</AuthLink>
      </p>
    </Card>
  )
}
