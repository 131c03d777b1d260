import { Bell } from 'lucide-react'
import { Form, Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Badge, Card, EmptyState, PageHeader } from '#app/components/ui/card.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { requirePageCaller } from '#server/http/pages.ts'
import { loadNotificationsPage, markAllRead } from '#server/pages/notifications-page.ts'
import type { NoticeKind } from '#server/accounts/notices.ts'
import type { Route } from './+types/_app.notifications'

export const meta = () => [{ title: 'Notifications · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadNotificationsPage(await requirePageCaller(request))
}

export async function action({ request }: Route.ActionArgs) {
  return markAllRead(await requirePageCaller(request))
}

// The badge names the kind in words a reader knows, not the stored identifier ("deadman").
const KIND: Record<NoticeKind, { label: string; tone: 'red' | 'amber' | 'green' | 'blue' }> = {
  failing: { label: 'Failing', tone: 'red' },
  paused: { label: 'Paused', tone: 'amber' },
  recovered: { label: 'Recovered', tone: 'green' },
  deadman: { label: 'No recent success', tone: 'red' },
  key_refused: { label: 'Key refused', tone: 'red' },
  transfer_offer: { label: 'Job offered', tone: 'blue' },
}

/**
 * Where alerts reach the reader. Only admins and owners are told the server setting that turns
 * email on: a member can do nothing with it, and learns where to look instead.
 */
function describePage(emailEnabled: boolean, canSeeServerSettings: boolean): string {
  const what =
    'Alerts about jobs you created or administer, model keys the provider refused, and jobs offered to you'
  if (emailEnabled) return `${what}; they are emailed to you too.`
  if (canSeeServerSettings)
    return `${what}. Email is off on this server (no SMTP_URL), so they show here only: whoever runs the server can set it to have them mailed too.`
  return `${what}. They are not emailed on this server, so they show here only: the bell at the top of every page counts the ones you have not read.`
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { notifications, unread, emailEnabled, canSeeServerSettings } = loaderData
  return (
    <>
      <PageHeader title="Notifications" description={describePage(emailEnabled, canSeeServerSettings)} />
      {unread > 0 ? (
        <Form method="post" className="mb-4">
          <Button type="submit">Mark all read</Button>
        </Form>
      ) : null}
      {notifications.length === 0 ? (
        <EmptyState icon={<Bell className="size-8" />} title="Nothing yet">
          A job that keeps failing, pauses itself, recovers or has not succeeded for longer than you expect
          shows up here, and so does a model key the provider refused.
        </EmptyState>
      ) : (
        <ul className="space-y-2">
          {notifications.map((n) => (
            <li key={n.id}>
              {/* A read alert is told by its quieter background, not faded text: faded text fell below AA. */}
              <Card className={n.read ? 'bg-stone-50 p-4 dark:bg-stone-950' : 'p-4'}>
                {/* A job's name and its error are tenant text: they break anywhere (decision 0370). */}
                <div className="flex flex-wrap items-center gap-2">
                  <Badge tone={KIND[n.kind as NoticeKind]?.tone ?? 'neutral'}>
                    {KIND[n.kind as NoticeKind]?.label ?? n.kind}
                  </Badge>
                  <span className="min-w-0 font-medium [overflow-wrap:anywhere]">{n.title}</span>
                  <span className="text-xs text-stone-600 dark:text-stone-400">
                    <RelativeTime value={n.createdAt} />
                  </span>
                </div>
                <p className="mt-1 text-sm whitespace-pre-wrap text-stone-600 [overflow-wrap:anywhere] dark:text-stone-400">
                  {n.body}
                </p>
                {n.jobId ? (
                  <Link
                    className="mt-1 inline-block text-sm text-brand-700 underline dark:text-brand-400"
                    to={`/jobs/${n.jobId}`}
                  >
                    Open the job
                  </Link>
                ) : n.kind === 'key_refused' ? (
                  <Link
                    className="mt-1 inline-block text-sm text-brand-700 underline dark:text-brand-400"
                    to="/settings/models"
                  >
                    Open Settings → Models
                  </Link>
                ) : null}
              </Card>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
