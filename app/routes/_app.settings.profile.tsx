import { useEffect, useState } from 'react'
import { useFetcher } from 'react-router'
import { toast } from 'sonner'
import { PageError } from '#app/components/ui/page-error.tsx'
import { TimezonePicker } from '#app/components/jobs/timezone-picker.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { ThemeToggle } from '#app/components/theme-toggle.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { fieldError, type ActionData } from '#app/lib/action-errors.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import { browserTimeZone } from '#app/lib/time.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { loadProfile, saveProfile } from '#server/pages/settings-profile.ts'
import type { Route } from './+types/_app.settings.profile'

export const meta = () => [{ title: 'Profile · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadProfile(await requirePageCaller(request))
}

export async function action({ request }: Route.ActionArgs) {
  return saveProfile(await requirePageCaller(request), request)
}

export default function Profile({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<ActionData>()
  const hydrated = useHydrated()
  const [picked, setPicked] = useState('')
  const zone = picked || loaderData.timezone || (hydrated ? browserTimeZone() : 'UTC')
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.ok) toast.success('Time zone saved')
  }, [fetcher.state, fetcher.data])
  return (
    <div className="space-y-6">
      <Card className="p-6">
        <h2 className="font-semibold">Appearance</h2>
        <p className="mt-1 mb-4 text-sm text-stone-600 dark:text-stone-400">
          Light, dark, or whatever your system uses. Kept in this browser.
        </p>
        <ThemeToggle />
      </Card>
      <Card className="p-6">
        <h2 className="font-semibold">Your time zone</h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          New jobs you create start in this zone; each job can still pick its own.
        </p>
        <fetcher.Form method="post" className="mt-5">
          <fieldset disabled={!hydrated} className="flex flex-wrap items-end gap-3">
            <div className="min-w-72 flex-1">
              <Field
                label="Time zone"
                error={fieldError(fetcher.data, 'timezone')}
                hint={loaderData.timezone ? null : "Not saved yet: this is your browser's zone."}
              >
                {({ id, describedBy, invalid }) => (
                  <TimezonePicker
                    id={id}
                    name="timezone"
                    value={zone}
                    onChange={setPicked}
                    invalid={invalid}
                    describedBy={describedBy}
                  />
                )}
              </Field>
            </div>
            <Button type="submit" busy={fetcher.state !== 'idle'} busyLabel="Saving…">
              Save
            </Button>
          </fieldset>
        </fetcher.Form>
      </Card>
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <PageError error={error} what="profile" />
}
