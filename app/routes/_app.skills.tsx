import { BookOpen } from 'lucide-react'
import { useFetcher } from 'react-router'
import { SkillHistory } from '#app/components/skills/skill-history.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Badge, Card, EmptyState, PageHeader } from '#app/components/ui/card.tsx'
import { ConfirmDeleteDialog } from '#app/components/ui/confirm-delete-dialog.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { useHydrated } from '#app/lib/hydrated.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleSkillsAction, loadSkillsPage } from '#server/pages/skills.ts'
import type { Route } from './+types/_app.skills'

export const meta = () => [{ title: 'Skills · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadSkillsPage(await requirePageCaller(request))
}

export async function action({ request }: Route.ActionArgs) {
  return handleSkillsAction(await requirePageCaller(request), request)
}

type Skill = Route.ComponentProps['loaderData']['skills'][number]

// Where the focus goes once a deleted skill's card, and its Delete button, are gone.
const SKILLS_LIST = 'skills-list'

const TONE = { pending_approval: 'amber', approved: 'green', rejected: 'red' } as const
const LABEL = { pending_approval: 'Pending approval', approved: 'Approved', rejected: 'Rejected' } as const

function SkillCard({
  skill,
  canDecide,
  timeZone,
}: {
  skill: Skill
  canDecide: boolean
  timeZone: string | null
}) {
  const fetcher = useFetcher<typeof action>()
  // The button that was pressed (its name and value travel with the form) says what is under way.
  const deciding = fetcher.formData?.get('intent')
  const hydrated = useHydrated()
  const error = fetcher.data && !fetcher.data.ok ? fetcher.data.error.message : null
  return (
    <Card className="p-4" data-testid={`skill-${skill.name}`}>
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="font-semibold">{skill.name}</h2>
        <Badge tone={TONE[skill.status]}>{LABEL[skill.status]}</Badge>
        <span className="text-xs text-stone-600 dark:text-stone-400">
          changed <RelativeTime value={skill.updatedAt} />
        </span>
        {skill.canDelete ? (
          <span className="ml-auto">
            <ConfirmDeleteDialog
              trigger={{ variant: 'ghost', label: `Delete skill ${skill.name}` }}
              title={`Delete ${skill.name}?`}
              description={`Jobs and environments that name ${skill.name} leave it out of their runs from now on. Its audit trail is kept.`}
              confirm="Delete"
              fields={{ id: skill.id }}
              focusAfterRemoval={SKILLS_LIST}
            />
          </span>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{skill.description}</p>
      <pre className="mt-3 max-h-64 overflow-auto rounded-lg bg-stone-100 p-3 text-xs whitespace-pre-wrap dark:bg-stone-800">
        {skill.content}
      </pre>
      {canDecide && skill.status === 'pending_approval' ? (
        <fetcher.Form method="post" className="mt-3 flex gap-2">
          <input type="hidden" name="id" value={skill.id} />
          <input type="hidden" name="updatedAt" value={skill.updatedAt} />
          {/* Button defaults to type="button": these must submit the form. */}
          <Button
            type="submit"
            name="intent"
            value="approve"
            disabled={!hydrated || fetcher.state !== 'idle'}
            busy={deciding === 'approve'}
            busyLabel="Approving…"
          >
            Approve
          </Button>
          <Button
            type="submit"
            name="intent"
            value="reject"
            variant="secondary"
            disabled={!hydrated || fetcher.state !== 'idle'}
            busy={deciding === 'reject'}
            busyLabel="Rejecting…"
          >
            Reject
          </Button>
        </fetcher.Form>
      ) : null}
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <SkillHistory skillId={skill.id} name={skill.name} timeZone={timeZone} />
    </Card>
  )
}

export default function SkillsPage({ loaderData }: Route.ComponentProps) {
  const { skills, canDecide, timeZone } = loaderData
  return (
    <>
      <PageHeader
        title="Skills"
        description={
          <>
            Skills the agent wrote (skills/&lt;name&gt;/SKILL.md). Each waits for an admin&apos;s approval
            before an environment or job can attach it; editing an approved skill sends it back here.
          </>
        }
      />
      <div id={SKILLS_LIST} tabIndex={-1} role="region" aria-label="Skills" className="outline-none">
        {skills.length === 0 ? (
          <EmptyState icon={<BookOpen className="size-6" aria-hidden />} title="No skills yet">
            When the agent writes a skill, it appears here for review.
          </EmptyState>
        ) : (
          <div className="space-y-4">
            {skills.map((skill) => (
              <SkillCard key={skill.id} skill={skill} canDecide={canDecide} timeZone={timeZone} />
            ))}
          </div>
        )}
      </div>
    </>
  )
}
