import { Switch } from 'radix-ui'
import { useEffect } from 'react'
import { useFetcher } from 'react-router'
import { toast } from 'sonner'
import { Badge, Card } from '#app/components/ui/card.tsx'
import { ExecControls } from '#app/components/settings/exec-controls.tsx'
import { PageError } from '#app/components/ui/page-error.tsx'
import type { ActionData } from '#app/lib/action-errors.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { loadAgentSettings, saveAgentSettings } from '#server/pages/settings-agent.ts'
import type { Route } from './+types/_app.settings.agent'

export const meta = () => [{ title: 'Agent · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadAgentSettings(await requirePageCaller(request))
}

export async function action({ request }: Route.ActionArgs) {
  return saveAgentSettings(await requirePageCaller(request), request)
}

type Data = Route.ComponentProps['loaderData']

/** One org switch: a control for owners and admins, plain text for everyone else. */
function SettingSwitch({
  setting,
  label,
  hint,
  value,
  canEdit,
}: {
  setting: 'runCode' | 'cli' | 'webFetch' | 'exec'
  label: string
  hint: string
  value: boolean
  canEdit: boolean
}) {
  const fetcher = useFetcher<ActionData>()
  const hydrated = useHydrated()
  const pending = fetcher.formData?.get('enabled')
  const checked = typeof pending === 'string' ? pending === 'true' : value
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) toast.success(`${label}: ${checked ? 'on' : 'off'}`)
    else toast.error(fetcher.data.error.message)
  }, [fetcher.state, fetcher.data, label, checked])
  const id = `setting-${setting}`
  return (
    <div className="flex items-start justify-between gap-6 py-4">
      <div>
        <label htmlFor={id} className="font-medium">
          {label}
        </label>
        <p className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">{hint}</p>
      </div>
      {canEdit ? (
        <Switch.Root
          id={id}
          checked={checked}
          disabled={!hydrated}
          onCheckedChange={(next) =>
            void fetcher.submit({ intent: 'toggle', setting, enabled: String(next) }, { method: 'post' })
          }
          className="relative mt-1 inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full bg-stone-300 transition-colors disabled:cursor-default disabled:opacity-60 data-[state=checked]:bg-brand-600 dark:bg-stone-700 dark:data-[state=checked]:bg-brand-500"
        >
          <Switch.Thumb className="block size-4 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[18px]" />
        </Switch.Root>
      ) : (
        <span
          id={id}
          className="mt-1 text-sm text-stone-600 dark:text-stone-400"
          data-testid={`state-${setting}`}
        >
          {value ? 'On' : 'Off'}
        </span>
      )}
    </div>
  )
}

const LEVEL_TONE = { strong: 'green', reduced: 'amber', unknown: 'neutral' } as const

function Isolation({ isolation }: { isolation: Data['isolation'] }) {
  return (
    <Card className="max-w-2xl p-6">
      <h2 className="font-semibold">Sandbox on this server</h2>
      <p className="mt-2 text-sm">
        <code>{isolation.adapter}</code>{' '}
        <Badge tone={LEVEL_TONE[isolation.level]} data-testid="isolation-level">
          {isolation.level}
        </Badge>
      </p>
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{isolation.summary}</p>
    </Card>
  )
}

export default function AgentSettings({ loaderData }: Route.ComponentProps) {
  const { settings, canEdit, clis, isolation, orgName } = loaderData
  const available = clis.filter((c) => c.available).map((c) => c.name)
  return (
    <div className="space-y-6">
      <Card className="max-w-2xl p-6">
        <h2 className="font-semibold">What the agent may run in {orgName}</h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          {canEdit
            ? 'Applies to everyone in the organisation, in chat and in job runs.'
            : 'Owners and admins of the organisation change these.'}
        </p>
        <div className="mt-2 divide-y divide-stone-200 dark:divide-stone-800">
          <SettingSwitch
            setting="runCode"
            label="Run code"
            hint="The agent writes and runs JavaScript in the sandbox (the run-code tool)."
            value={settings.runCode}
            canEdit={canEdit}
          />
          <SettingSwitch
            setting="cli"
            label="Command-line tools"
            hint={`The agent calls command-line tools on this server (the cli tool). Available here: ${
              available.length ? available.join(', ') : 'none'
            }.`}
            value={settings.cli}
            canEdit={canEdit}
          />
          <SettingSwitch
            setting="webFetch"
            label="Read web pages"
            hint="The agent fetches public web pages as text (the web_fetch tool); private and internal addresses are always refused."
            value={settings.webFetch}
            canEdit={canEdit}
          />
          <SettingSwitch
            setting="exec"
            label="Commands in environments"
            hint="The agent (run_command) and people (the command box) run commands in environments."
            value={settings.exec}
            canEdit={canEdit}
          />
        </div>
      </Card>
      <ExecControls settings={settings} canEdit={canEdit} />
      <Isolation isolation={isolation} />
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <PageError error={error} what="agent settings" />
}
