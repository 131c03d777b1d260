import { useState } from 'react'
import { useNavigate, useSearchParams } from 'react-router'
import { AuthLink, FormAlert, SubmitButton } from '#app/components/auth-form.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { authClient, refusalMessage } from '#app/lib/auth-client.ts'

export const meta = () => [{ title: 'Choose a new password · Clockwork' }]

const MIN_LENGTH = 8

type Errors = { password?: string; confirm?: string; form?: string }

/** Checks the two fields before asking the server; the server checks the length again. */
function validate(password: string, confirm: string): Errors {
  if (password.length < MIN_LENGTH) return { password: `Use at least ${MIN_LENGTH} characters.` }
  if (password !== confirm) return { confirm: 'The two passwords differ.' }
  return {}
}

/**
 * The mailed link goes through better-auth (GET /_agent-native/auth/reset-password/:token), which
 * checks the token and sends the person here with `?token=…`, or with `?error=INVALID_TOKEN`.
 */
export default function ResetPassword() {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const [pending, setPending] = useState(false)
  const [errors, setErrors] = useState<Errors>({})
  const token = params.get('token')

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const newPassword = String(form.get('password') ?? '')
    const found = validate(newPassword, String(form.get('confirm') ?? ''))
    setErrors(found)
    if (Object.keys(found).length > 0 || !token) return
    setPending(true)
    const result = await authClient.resetPassword({ newPassword, token })
    if (result.error) {
      setPending(false)
      const code = result.error.code ?? ''
      const message = refusalMessage(result.error) ?? 'That did not work. Try again.'
      if (code.startsWith('PASSWORD_TOO')) setErrors({ password: message })
      else if (code === 'INVALID_TOKEN') setErrors({ form: 'This link has expired or was used already.' })
      else setErrors({ form: message })
      return
    }
    void navigate('/sign-in?reset=done', { replace: true })
  }

  if (!token || params.get('error')) {
    return (
      <Card className="p-6">
        <h1 className="text-lg font-semibold">This link does not work</h1>
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          Reset links work once and for an hour. <AuthLink to="/forgot-password">Ask for a new one</AuthLink>.
        </p>
      </Card>
    )
  }

  return (
    <Card className="p-6">
      <h1 className="text-lg font-semibold">Choose a new password</h1>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">Then sign in with it.</p>
      <form method="post" className="mt-6 space-y-4" onSubmit={onSubmit} noValidate>
        <PasswordField
          label="New password"
          name="password"
          error={errors.password}
          hint={`At least ${MIN_LENGTH} characters.`}
          autoFocus
        />
        <PasswordField label="Repeat it" name="confirm" error={errors.confirm} />
        <FormAlert error={errors.form ?? null} />
        {errors.form ? (
          <p className="text-sm">
            <AuthLink to="/forgot-password">Ask for a new link</AuthLink>
          </p>
        ) : null}
        <SubmitButton pending={pending} pendingLabel="Saving…">
          Save new password
        </SubmitButton>
      </form>
    </Card>
  )
}

function PasswordField({
  name,
  autoFocus,
  ...field
}: {
  label: string
  name: string
  error?: string
  hint?: string
  autoFocus?: boolean
}) {
  return (
    <Field {...field}>
      {({ id, describedBy, invalid }) => (
        <Input
          id={id}
          name={name}
          type="password"
          autoComplete="new-password"
          aria-describedby={describedBy}
          aria-invalid={invalid}
          required
          autoFocus={autoFocus}
        />
      )}
    </Field>
  )
}
