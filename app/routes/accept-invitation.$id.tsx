import { useActionData } from 'react-router'
import { InvitationBody, invitationHeading } from '#app/components/members/invitation-states.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { handleInvitationAction, loadInvitationPage } from '#server/pages/invitation.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import type { Route } from './+types/accept-invitation.$id'

export const meta = () => [{ title: 'Invitation · Clockwork' }]

export async function loader({ request, params }: Route.LoaderArgs) {
  return loadInvitationPage(request, params.id)
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleInvitationAction(request, await requirePageCaller(request), params.id)
}

export default function AcceptInvitation({ loaderData: view }: Route.ComponentProps) {
  const refused = useActionData<typeof action>()
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 px-4">
      <div className="flex items-center gap-2" data-testid="logo">
        <img src="/favicon.svg" alt="" className="size-9" />
        <span className="text-xl font-semibold tracking-tight">Clockwork</span>
      </div>
      <Card className="w-full max-w-md p-6">
        <h1 className="text-lg font-semibold">{invitationHeading(view)}</h1>
        <InvitationBody view={view} error={refused?.error} />
      </Card>
    </main>
  )
}
