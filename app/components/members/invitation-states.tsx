import { Form, Link, useNavigation } from 'react-router'
import { Button, buttonClass } from '#app/components/ui/button.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { authClient } from '#app/lib/auth-client.ts'
import type { InvitationView } from '#server/pages/invitation.ts'

const TEXT = 'mt-2 text-sm text-stone-600 dark:text-stone-400'

/** The heading of each state: what happened, in a few words. */
export function invitationHeading(view: InvitationView): string {
  switch (view.state) {
    case 'signed-out':
    case 'ready':
      return 'You have been invited'
    case 'not-found':
      return 'No invitation at this link'
    case 'other-account':
      return 'This invitation is for another email address'
    case 'accepted':
      return 'You already accepted this invitation'
    case 'cancelled':
      return 'This invitation was cancelled'
    case 'expired':
      return 'This invitation has expired'
  }
}

/** A form button that posts `intent` to the page's action, saying so while it is out. */
function ActionButton({ intent, text, busyText }: { intent: string; text: string; busyText: string }) {
  const navigation = useNavigation()
  return (
    <Form method="post" className="mt-6">
      <input type="hidden" name="intent" value={intent} />
      <Button type="submit" busy={navigation.state !== 'idle'} busyLabel={busyText}>
        {text}
      </Button>
    </Form>
  )
}

/** Signs out and comes back here, to sign in with the invited address. */
function SignOutAndReturn({ invitationId }: { invitationId: string }) {
  const back = encodeURIComponent(`/accept-invitation/${invitationId}`)
  return (
    <Button
      className="mt-6"
      onClick={async () => {
        await authClient.signOut()
        window.location.assign(`/sign-in?redirectTo=${back}`)
      }}
    >
      Sign out and sign in again
    </Button>
  )
}

const AskForAnother = ({ inviterEmail, orgName }: { inviterEmail: string; orgName: string }) => (
  <p className={TEXT}>
    To join {orgName}, ask an admin of {orgName} for a new invitation ({inviterEmail} sent this one).
  </p>
)

const JobsLink = () => (
  <Link to="/jobs" className={buttonClass('secondary', 'md', 'mt-6')}>
    Go to your jobs
  </Link>
)

/** What the page says under its heading, and the way on from there. */
export function InvitationBody({ view, error }: { view: InvitationView; error?: string }) {
  const back = encodeURIComponent(`/accept-invitation/${view.invitationId}`)
  switch (view.state) {
    case 'signed-out':
      return (
        <>
          <p className={TEXT}>
            Sign in, or create an account, with the email address the invitation was sent to. You then come
            back here to join.
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link to={`/sign-up?redirectTo=${back}`} className={buttonClass()}>
              Create account
            </Link>
            <Link to={`/sign-in?redirectTo=${back}`} className={buttonClass('secondary')}>
              Sign in
            </Link>
          </div>
        </>
      )
    case 'ready':
      return (
        <>
          <p className={TEXT + ' [overflow-wrap:anywhere]'}>
            {view.inviterEmail} invited <strong>{view.email}</strong> to join <strong>{view.orgName}</strong>{' '}
            as <strong>{view.role}</strong>.
          </p>
          {error ? (
            <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-400">
              {error}
            </p>
          ) : null}
          <ActionButton intent="accept" text={`Join ${view.orgName}`} busyText="Joining…" />
        </>
      )
    case 'not-found':
      return (
        <>
          <p className={TEXT}>
            Check that you opened the whole link. If you did, ask the person who invited you for a new one.
          </p>
          <p className={TEXT + ' [overflow-wrap:anywhere]'}>Signed in as {view.signedInAs}.</p>
          <JobsLink />
        </>
      )
    case 'other-account':
      return (
        <>
          <p className={TEXT + ' [overflow-wrap:anywhere]'}>
            You are signed in as <strong>{view.signedInAs}</strong>, and the invitation was sent to another
            address. Sign out, then sign in (or create an account) with the address it was sent to.
          </p>
          <SignOutAndReturn invitationId={view.invitationId} />
        </>
      )
    case 'accepted':
      return view.stillMember ? (
        <>
          <p className={TEXT}>
            You are a member of <strong>{view.orgName}</strong>. There is nothing more to do here.
          </p>
          <ActionButton intent="open" text={`Go to ${view.orgName}`} busyText="Opening…" />
        </>
      ) : (
        <>
          <p className={TEXT}>
            You joined <strong>{view.orgName}</strong> with it and are no longer a member. To join again, ask
            an admin of {view.orgName} for a new invitation.
          </p>
          <JobsLink />
        </>
      )
    case 'cancelled':
      return (
        <>
          <p className={TEXT}>{view.orgName} withdrew it, so it no longer lets you join.</p>
          <AskForAnother inviterEmail={view.inviterEmail} orgName={view.orgName} />
          <JobsLink />
        </>
      )
    case 'expired':
      return (
        <>
          <p className={TEXT}>
            An invitation is good for 7 days; this one ended <RelativeTime value={view.expiredAt} />.
          </p>
          <AskForAnother inviterEmail={view.inviterEmail} orgName={view.orgName} />
          <JobsLink />
        </>
      )
  }
}
