import { KeyRound, UserMinus, UserPlus, Users } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { useFetcher } from 'react-router'
import { toast } from 'sonner'
import { CopyField } from '#app/components/copy-field.tsx'
import { TransferJobsCard } from '#app/components/members/transfer-jobs.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { ConfirmDeleteDialog } from '#app/components/ui/confirm-delete-dialog.tsx'
import { Badge, Card, EmptyState } from '#app/components/ui/card.tsx'
import { Field, Input, inputClass } from '#app/components/ui/field.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { fieldError, formLevelError } from '#app/lib/action-errors.ts'
import { useFocusAfterRemoval } from '#app/lib/use-focus-after-removal.ts'
import { handleMembersAction, loadMembersPage } from '#server/pages/settings-members.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import type { Route } from './+types/_app.settings.members'

export const meta = () => [{ title: 'Members · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadMembersPage(await requirePageCaller(request))
}

export async function action({ request }: Route.ActionArgs) {
  return handleMembersAction(await requirePageCaller(request), request)
}

const roles = ['member', 'admin', 'owner'] as const

function InviteForm({ mailed }: { mailed: boolean }) {
  const fetcher = useFetcher<typeof action>()
  const form = useRef<HTMLFormElement>(null)
  const result = fetcher.data
  const link = result?.ok && result.intent === 'invite' ? (result.data as { link: string }).link : null
  useEffect(() => {
    if (link) form.current?.reset()
  }, [link])
  const invite = result?.intent === 'invite' ? result : undefined
  const emailError = fieldError(invite, 'email')
  const general = formLevelError(invite, ['email'])
  return (
    <Card className="p-5">
      <h2 className="flex items-center gap-2 font-semibold">
        <UserPlus className="size-4" aria-hidden /> Invite someone
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        They sign in (or sign up) with this email and open the link.{' '}
        {mailed
          ? 'The link is emailed to them; you can share it yourself too.'
          : 'This server sends no email, so share the link yourself.'}
      </p>
      <fetcher.Form ref={form} method="post" className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="invite" />
        <div className="min-w-64 flex-1">
          <Field label="Email" error={emailError}>
            {({ id, describedBy, invalid }) => (
              <Input
                id={id}
                name="email"
                type="email"
                required
                aria-invalid={invalid}
                aria-describedby={describedBy}
              />
            )}
          </Field>
        </div>
        <Field label="Role">
          {({ id }) => (
            <select id={id} name="role" defaultValue="member" className={inputClass + ' w-32'}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Button type="submit" busy={fetcher.state !== 'idle'} busyLabel="Inviting…">
          Create invite link
        </Button>
      </fetcher.Form>
      {general ? (
        <p role="alert" className="mt-3 text-sm text-red-600">
          {general.message}
        </p>
      ) : null}
      {link ? (
        <div className="mt-4 rounded-lg bg-brand-50 p-3 dark:bg-brand-900/30" data-testid="invite-link">
          <p className="mb-2 text-sm font-medium">Invite link ready. Send it to them:</p>
          <CopyField value={link} label="invite link" />
        </div>
      ) : null}
    </Card>
  )
}

function useActionToast(fetcher: ReturnType<typeof useFetcher<typeof action>>, success: string) {
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) toast.success(success)
    else toast.error(fetcher.data.error.message)
  }, [fetcher.state, fetcher.data, success])
}

/**
 * A member's row. On a phone the three cells would not fit side by side (a role picker and two
 * buttons leave no room for a name), so the row wraps: the person on a line of their own, the role
 * and the actions under them; the column headings stay for screen readers.
 */
const MEMBER_ROW =
  'border-t border-stone-200 dark:border-stone-800 max-sm:flex max-sm:flex-wrap max-sm:items-center'

type Member = Route.ComponentProps['loaderData']['members'][number]

/** The members table's caption, where the focus goes once a removed member's row is gone. */
const MEMBERS_HEADING = 'members-heading'

function MemberRow({
  member,
  canManage,
  isMe,
  mayResetOwner,
}: {
  member: Member
  canManage: boolean
  isMe: boolean
  mayResetOwner: boolean
}) {
  const roleFetcher = useFetcher<typeof action>()
  const resetFetcher = useFetcher<typeof action>()
  useActionToast(roleFetcher, `Role updated for ${member.name}`)
  const reset = resetFetcher.data?.intent === 'reset-link' ? resetFetcher.data : undefined
  const made = reset?.ok ? (reset.data as { link: string; machineTokensRevoked: number }) : null
  const resetLink = made?.link ?? null
  const mayReset = canManage && !isMe && (member.role !== 'owner' || mayResetOwner)
  return (
    <>
      <tr className={MEMBER_ROW}>
        <td className="px-4 py-3 [overflow-wrap:anywhere] max-sm:basis-full max-sm:pb-1">
          <div className="font-medium">
            {member.name}{' '}
            {isMe ? (
              <span className="text-xs font-normal text-stone-600 dark:text-stone-400">(you)</span>
            ) : null}
          </div>
          <div className="text-sm text-stone-600 dark:text-stone-400">{member.email}</div>
        </td>
        <td className="px-4 py-3 max-sm:pt-1">
          {canManage && !isMe ? (
            <roleFetcher.Form method="post">
              <input type="hidden" name="intent" value="update-role" />
              <input type="hidden" name="memberId" value={member.id} />
              <select
                name="role"
                aria-label={`Role of ${member.name}`}
                defaultValue={member.role}
                className={inputClass + ' w-32 min-w-32 py-1'}
                onChange={(e) => void roleFetcher.submit(e.currentTarget.form)}
              >
                {roles.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </roleFetcher.Form>
          ) : (
            <Badge tone={member.role === 'member' ? 'neutral' : 'brand'} data-testid={`role-${member.email}`}>
              {member.role}
            </Badge>
          )}
        </td>
        <td className="space-x-1 px-4 py-3 text-right whitespace-nowrap max-sm:ml-auto max-sm:pt-1">
          {mayReset ? (
            <resetFetcher.Form method="post" className="inline">
              <input type="hidden" name="intent" value="reset-link" />
              <input type="hidden" name="userId" value={member.userId} />
              <Button
                type="submit"
                variant="ghost"
                size="sm"
                busy={resetFetcher.state !== 'idle'}
                busyLabel="Making a link…"
                title={`Make a one-time link for ${member.name} to choose a new password`}
              >
                <KeyRound className="size-4" aria-hidden /> Reset link
              </Button>
            </resetFetcher.Form>
          ) : null}
          {canManage && !isMe ? <RemoveMember member={member} /> : null}
        </td>
      </tr>
      {reset && !reset.ok ? (
        <tr>
          <td colSpan={3} className="px-4 pb-3">
            <p role="alert" className="text-sm text-red-600">
              {reset.error.message}
            </p>
          </td>
        </tr>
      ) : null}
      {resetLink ? (
        <tr>
          <td colSpan={3} className="px-4 pb-4">
            <div className="rounded-lg bg-brand-50 p-3 dark:bg-brand-900/30" data-testid="reset-link">
              <p className="mb-2 text-sm font-medium">
                Reset link for {member.name} ready. It works once, for 24 hours; send it to them yourself:
              </p>
              <CopyField value={resetLink} label={`reset link for ${member.name}`} />
              {made?.machineTokensRevoked ? (
                <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
                  Their connected computers were disconnected and their machine tokens revoked: they connect
                  them again from Settings → Machines after signing in.
                </p>
              ) : null}
            </div>
          </td>
        </tr>
      ) : null}
    </>
  )
}

function AccountHelp({ audit }: { audit: Route.ComponentProps['loaderData']['audit'] }) {
  if (audit.length === 0) return null
  return (
    <section aria-labelledby="account-help-heading">
      <h2 id="account-help-heading" className="mb-3 font-semibold">
        Account help
      </h2>
      <Card className="p-4">
        <ul className="space-y-2 text-sm" data-testid="member-audit">
          {audit.map((entry) => (
            <li key={entry.id}>
              <span className="font-medium">{entry.actor?.name ?? 'A former member'}</span> made a password
              reset link for <span className="font-medium">{entry.subject?.name ?? 'a former member'}</span> ·{' '}
              <RelativeTime value={entry.at} />
            </li>
          ))}
        </ul>
      </Card>
    </section>
  )
}

/**
 * Remove, in the app's dialog: it names the person and what leaves with them (their jobs here
 * pause, their access tokens here end; their machines are their own account's, and nothing here
 * runs on them any more); a refusal (an owner) shows in the dialog. The row gone, the focus goes
 * to the members table's caption (decision 0428).
 */
function RemoveMember({ member }: { member: Member }) {
  return (
    <ConfirmDeleteDialog
      trigger={{ variant: 'ghost', text: 'Remove', size: 'sm', label: `Remove ${member.name}` }}
      icon={<UserMinus className="size-4" aria-hidden />}
      title={`Remove ${member.name}?`}
      description={
        <>
          {member.name} ({member.email}) loses access to this organisation. Their jobs here pause: an admin
          can take the shared ones over, or offer them to another member, under Transfer shared jobs; their
          personal jobs stay paused, since nobody else sees them, until they are invited back and enable them
          again. Their access tokens for this organisation stop working. Their connected machines stay on
          their account, but nothing in this organisation runs on them any more. Their account stays; an
          invitation brings them back.
        </>
      }
      confirm={`Remove ${member.name}`}
      cancel="Keep them"
      intent="remove"
      busyText="Removing…"
      fields={{ memberId: member.id }}
      focusAfterRemoval={MEMBERS_HEADING}
      done={`${member.name} removed`}
    />
  )
}

/**
 * One invitation's Cancel, with a fetcher of its own: it says "Cancelling…" and takes no second
 * click while its request is out.
 */
function CancelInvitation({ id, email }: { id: string; email: string }) {
  const fetcher = useFetcher<typeof action>()
  const busy = fetcher.state !== 'idle'
  // The invitation gone, the focus goes to the list's heading, not to the page.
  const cancel = useFocusAfterRemoval<HTMLFormElement>('pending-heading')
  return (
    <fetcher.Form method="post" ref={cancel}>
      <input type="hidden" name="intent" value="cancel-invitation" />
      <input type="hidden" name="invitationId" value={id} />
      <Button
        type="submit"
        variant="ghost"
        size="sm"
        busy={busy}
        busyLabel="Cancelling…"
        aria-label={`Cancel the invitation of ${email}`}
      >
        Cancel
      </Button>
    </fetcher.Form>
  )
}

export default function Members({ loaderData }: Route.ComponentProps) {
  const { me, members, invitations, jobOwners, audit } = loaderData
  return (
    <div className="space-y-6">
      {me.canManage ? <InviteForm mailed={loaderData.invitationsMailed} /> : null}
      <Card className="overflow-hidden">
        <table className="w-full text-left text-sm max-sm:block">
          <caption
            id={MEMBERS_HEADING}
            tabIndex={-1}
            className="px-4 pt-4 pb-2 text-left font-semibold max-sm:block"
          >
            Members ({members.length})
          </caption>
          <thead className="text-xs text-stone-600 uppercase max-sm:sr-only dark:text-stone-400">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">
                Person
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Role
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="max-sm:block">
            {members.map((m) => (
              <MemberRow
                key={m.id}
                member={m}
                canManage={me.canManage}
                isMe={m.userId === me.userId}
                mayResetOwner={me.role === 'owner'}
              />
            ))}
          </tbody>
        </table>
      </Card>
      {me.canManage ? <TransferJobsCard owners={jobOwners} members={members} /> : null}
      {me.canManage ? <AccountHelp audit={audit} /> : null}
      {me.canManage ? (
        <section aria-labelledby="pending-heading">
          <h2 id="pending-heading" tabIndex={-1} className="mb-3 font-semibold">
            Pending invitations
          </h2>
          {me.role === 'owner' ? null : (
            <p className="mb-3 text-sm text-stone-600 dark:text-stone-400">
              Invitations to become an owner are shown to owners only.
            </p>
          )}
          {invitations.length === 0 ? (
            <EmptyState icon={<Users className="size-6" />} title="No pending invitations">
              Invite a teammate above; their link stays valid for 7 days.
            </EmptyState>
          ) : (
            <ul className="space-y-3">
              {invitations.map((inv) => (
                <li key={inv.id}>
                  <Card className="p-4">
                    <div className="mb-2 flex items-center justify-between gap-2">
                      <span className="min-w-0 text-sm [overflow-wrap:anywhere]">
                        <span className="font-medium">{inv.email}</span> as{' '}
                        <Badge>{inv.role ?? 'member'}</Badge>
                      </span>
                      <CancelInvitation id={inv.id} email={inv.email} />
                    </div>
                    <CopyField value={inv.link} label={`invite link for ${inv.email}`} />
                  </Card>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </div>
  )
}
