import { LoaderCircle } from 'lucide-react'
import { useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { authClient } from '#app/lib/auth-client.ts'
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
  // Sign-in runs in the browser; until the script has loaded the form must not submit natively.
  const hydrated = useHydrated()
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
      setError(result.error.message ?? 'That did not work. Check your details and try again.')
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
        <Field label="Password" hint={isSignUp ? 'At least 8 characters.' : undefined}>
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
        {error ? (
          <p
            role="alert"
            className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
          >
            {error}
          </p>
        ) : null}
        <Button type="submit" className="w-full" disabled={pending || !hydrated}>
          {pending ? (
            <>
              <LoaderCircle className="size-4 animate-spin" aria-hidden />
              {isSignUp ? 'Creating your account…' : 'Signing in…'}
            </>
          ) : isSignUp ? (
            'Create account'
          ) : (
            'Sign in'
          )}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-stone-600 dark:text-stone-400">
        {isSignUp ? 'Already have an account? ' : 'New here? '}
        <Link
          to={`${isSignUp ? '/sign-in' : '/sign-up'}${carry}`}
          className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-400"
        >
          {isSignUp ? 'Sign in' : 'Create an account'}
        </Link>
      </p>
    </Card>
  )
}
