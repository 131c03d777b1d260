import { LoaderCircle } from 'lucide-react'
import { useState } from 'react'
import { Link, useNavigate, useSearchParams, type LinkProps } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { authClient, refusalMessage } from '#app/lib/auth-client.ts'
import { useHydrated } from '#app/lib/hydrated.ts'

type Mode = 'sign-in' | 'sign-up'

function safePath(value: string | null) {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/jobs'
}

/** Email + password form shared by the sign-in and sign-up pages. */
export function AuthForm({ mode }: { mode: Mode }) {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const [error, setError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)
  const redirectTo = safePath(params.get('redirectTo'))
  const carry = params.get('redirectTo') ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ''

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const email = String(form.get('email') ?? '')
    const password = String(form.get('password') ?? '')
    setPending(true)
    setError(null)
    const result =
      mode === 'sign-up'
        ? await authClient.signUp.email({
            name: String(form.get('name') ?? ''),
            email,
            password,
            timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          } as Parameters<typeof authClient.signUp.email>[0])
        : await authClient.signIn.email({ email, password })
    if (result.error) {
      setPending(false)
      // The server's own checks (a closed sign-up, a name it cannot store) answer in our error shape.
      setError(refusalMessage(result.error) ?? 'That did not work. Check your details and try again.')
      return
    }
    // Still pending: the button keeps saying so until the next page replaces this one.
    // A full navigation, so every loader sees the new session cookie.
    void navigate(redirectTo, { replace: true })
  }

  const isSignUp = mode === 'sign-up'
  return (
    <Card className="p-6">
      <h1 className="text-lg font-semibold">{isSignUp ? 'Create your account' : 'Sign in to Clockwork'}</h1>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        {isSignUp ? 'You get a workspace of your own; invite your team later.' : 'Welcome back.'}
      </p>
      {!isSignUp && params.get('reset') === 'done' ? (
        <p role="status" className="mt-4 rounded-md bg-brand-50 px-3 py-2 text-sm dark:bg-brand-900/40">
          Your password is changed. Sign in with the new one.
        </p>
      ) : null}
      <form method="post" className="mt-6 space-y-4" onSubmit={onSubmit}>
        {isSignUp ? (
          <Field label="Name">
            {({ id }) => <Input id={id} name="name" autoComplete="name" required autoFocus />}
          </Field>
        ) : null}
        <Field label="Email">
          {({ id }) => (
            <Input id={id} name="email" type="email" autoComplete="email" required autoFocus={!isSignUp} />
          )}
        </Field>
        <Field
          label="Password"
          hint={
            isSignUp ? 'At least 8 characters.' : <AuthLink to="/forgot-password">Forgot password?</AuthLink>
          }
        >
          {({ id, describedBy }) => (
            <Input
              id={id}
              name="password"
              type="password"
              minLength={8}
              autoComplete={isSignUp ? 'new-password' : 'current-password'}
              aria-describedby={describedBy}
              required
            />
          )}
        </Field>
        <FormAlert error={error} />
        <SubmitButton pending={pending} pendingLabel={isSignUp ? 'Creating your account…' : 'Signing in…'}>
          {isSignUp ? 'Create account' : 'Sign in'}
        </SubmitButton>
      </form>
      <p className="mt-6 text-center text-sm text-stone-600 dark:text-stone-400">
        {isSignUp ? 'Already have an account? ' : 'New here? '}
        <AuthLink to={`${isSignUp ? '/sign-in' : '/sign-up'}${carry}`}>
          {isSignUp ? 'Sign in' : 'Create an account'}
        </AuthLink>
      </p>
    </Card>
  )
}

/** The underlined link the auth pages use between each other. */
export function AuthLink(props: LinkProps) {
  return (
    <Link
      {...props}
      className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-400"
    />
  )
}

/** A form-level error (one not about a single field), read out when it appears. */
export function FormAlert({ error }: { error: string | null }) {
  if (!error) return null
  return (
    <p
      role="alert"
      className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
    >
      {error}
    </p>
  )
}

/**
 * The full-width submit button of the auth pages. Their forms run in the browser, so until the
 * script has loaded the button stays disabled and the form cannot submit natively.
 */
export function SubmitButton({
  pending,
  pendingLabel,
  children,
}: {
  pending: boolean
  pendingLabel: string
  children: React.ReactNode
}) {
  const hydrated = useHydrated()
  return (
    <Button
      type="submit"
      className="w-full"
      disabled={!hydrated}
      busy={pending}
      busyLabel={
        <>
          <LoaderCircle className="size-4 animate-spin" aria-hidden />
          {pendingLabel}
        </>
      }
    >
      {children}
    </Button>
  )
}
