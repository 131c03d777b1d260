import { AuthForm } from '#app/components/auth-form.tsx'

export const meta = () => [{ title: 'Create account · Clockwork' }]

export default function SignUp() {
  return <AuthForm mode="sign-up" />
}
