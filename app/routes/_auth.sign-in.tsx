import { AuthForm } from '#app/components/auth-form.tsx'

export const meta = () => [{ title: 'Sign in · Clockwork' }]

export default function SignIn() {
  return <AuthForm mode="sign-in" />
}
