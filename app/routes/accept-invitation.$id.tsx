import { Form, Link, useNavigation } from 'react-router'
import { Button, buttonClass } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { acceptInvitationAndRedirect, loadInvitationPage } from '#server/pages/invitation.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import type { Route } from './+types/accept-invitation.$id'

export const meta = () => [{ title: 'Invitation · Clockwork' }]

export async function loader({ request, params }: Route.LoaderArgs) {
  return loadInvitationPage(request, params.id)
}

export async function action({ request, params }: Route.ActionArgs) {
  await requirePageCaller(request)
  return acceptInvitationAndRedirect(request, params.id)
}

export default function AcceptInvitation({ loaderData: view }: Route.ComponentProps) {
  const navigation = useNavigation()
  const back = encodeURIComponent(`/accept-invitation/${view.invitationId}`)
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <Card className="w-full max-w-md p-6">
        <h1 className="text-lg font-semibold">You have been invited</h1>
        {view.state === 'signed-out' ? (
          <>
            <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
              Sign in, or create an account, with the email address the invitation was sent to.
            </p>
            <div className="mt-6 flex gap-3">
              <Link to={`/sign-up?redirectTo=${back}`} className={buttonClass()}>
                Create account
              </Link>
              <Link to={`/sign-in?redirectTo=${back}`} className={buttonClass('secondary')}>
                Sign in
              </Link>
            </div>
          </>
        ) : view.state === 'ready' ? (
          <>
            <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
              {view.inviterEmail} invited <strong>{view.email}</strong> to join{' '}
              <strong>{view.orgName}</strong> as <strong>{view.role}</strong>.
            </p>
            <Form method="post" className="mt-6">
              <Button type="submit" disabled={navigation.state !== 'idle'}>
                {navigation.state !== 'idle' ? 'Joining…' : `Join ${view.orgName}`}
              </Button>
            </Form>
          </>
        ) : (
          <>
            <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
              {view.message}
            </p>
            <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">Signed in as {view.signedInAs}.</p>
            <Link to="/jobs" className={buttonClass('secondary', 'md', 'mt-6')}>
              Go to your jobs
            </Link>
          </>
        )}
      </Card>
    </main>
  )
}
