import { useEffect, useState } from 'react'
import { useFetcher } from 'react-router'
import { toast } from 'sonner'
import type { OrgSettings } from '#server/accounts/org-settings-schema.ts'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { Field, Input, inputClass } from '#app/components/ui/field.tsx'
import { fieldError, formLevelError, type ActionData } from '#app/lib/action-errors.ts'
import { useHydrated } from '#app/lib/hydrated.ts'

const RUNTIMES = [
  { id: 'node', label: 'Node.js (node, npm, npx)' },
  { id: 'python', label: 'Python (python, pip)' },
] as const

const LIMITS = [
  { id: 'timeoutSeconds', label: 'Time per command (s)' },
  { id: 'cpuSeconds', label: 'CPU time (s)' },
  { id: 'memoryMb', label: 'Memory (MB)' },
  { id: 'processes', label: 'Processes' },
  { id: 'diskMb', label: 'Disk per environment (MB)' },
  { id: 'outputKb', label: 'Output kept per stream (KB)' },
] as const

/** The fields the form shows their errors beside; anything else is said in the toast. */
const SHOWN = ['execLimits', 'execDeny']

type Exec = Pick<OrgSettings, 'exec' | 'execRuntimes' | 'execLimits' | 'execDeny'>

/**
 * Settings → Agent: the organisation's layer over every environment's commands: the runtimes
 * they may start, limits (ceilings no definition exceeds) and extra deny patterns. Owners and admins edit; members read.
 */
export function ExecControls({ settings, canEdit }: { settings: Exec; canEdit: boolean }) {
  const fetcher = useFetcher<ActionData>()
  const hydrated = useHydrated()
  const [runtimes, setRuntimes] = useState<string[]>(settings.execRuntimes)
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) toast.success('Command rules saved')
    else toast.error(formLevelError(fetcher.data, SHOWN)?.message ?? 'Not saved: see the fields marked below')
  }, [fetcher.state, fetcher.data])
  const errorFor = (field: string) => fieldError(fetcher.data, field)

  if (!canEdit) {
    const limits = Object.entries(settings.execLimits)
    return (
      <Card className="max-w-2xl p-6" data-testid="exec-controls">
        <h2 className="font-semibold">Commands in environments</h2>
        <dl className="mt-3 space-y-2 text-sm">
          <div>
            <dt className="font-medium">Runtimes</dt>
            <dd>{settings.execRuntimes.length ? settings.execRuntimes.join(', ') : 'none'}</dd>
          </div>
          <div>
            <dt className="font-medium">Limits (no environment gets more)</dt>
            <dd>
              {limits.length ? limits.map(([k, v]) => `${k} ${v}`).join(', ') : 'the server’s defaults'}
            </dd>
          </div>
          <div>
            <dt className="font-medium">Always denied</dt>
            <dd>
              {settings.execDeny.length
                ? settings.execDeny.map((p) => <code key={p}>{p} </code>)
                : 'nothing extra'}
            </dd>
          </div>
        </dl>
      </Card>
    )
  }

  return (
    <Card className="max-w-2xl p-6" data-testid="exec-controls">
      <h2 className="font-semibold">Commands in environments</h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Apply above every environment’s own policy: members can tighten them, never loosen them. Limits are
        ceilings: an environment asking for more gets these.
      </p>
      <fetcher.Form method="post" className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="exec-controls" />
        <input type="hidden" name="runtimes" value={runtimes.join(',')} />
        <fieldset>
          <legend className="text-sm font-medium">Runtimes commands may start</legend>
          {RUNTIMES.map((r) => (
            <label key={r.id} className="mt-1 flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={runtimes.includes(r.id)}
                onChange={(e) =>
                  setRuntimes((list) => (e.target.checked ? [...list, r.id] : list.filter((x) => x !== r.id)))
                }
              />
              {r.label}
            </label>
          ))}
        </fieldset>
        {/* Three abreast from a 48rem column, two from 28rem (beside the open chat three were 150 px,
            their labels broken over two lines); by the column, not the window (decision 0529). */}
        <div className="grid gap-3 @md:grid-cols-2 @3xl:grid-cols-3">
          {LIMITS.map((l) => (
            <Field key={l.id} label={l.label} error={errorFor(`execLimits.${l.id}`)}>
              {({ id, describedBy, invalid }) => (
                <Input
                  id={id}
                  name={l.id}
                  inputMode="numeric"
                  placeholder="default"
                  defaultValue={settings.execLimits[l.id] ?? ''}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                />
              )}
            </Field>
          ))}
        </div>
        <Field
          label="Always denied (one pattern per line)"
          hint='Globs matched against each simple command, e.g. "git push *" or "curl *".'
          error={errorFor('execDeny')}
        >
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              name="deny"
              rows={3}
              className={inputClass}
              defaultValue={settings.execDeny.join('\n')}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
        <Button type="submit" disabled={!hydrated} busy={fetcher.state !== 'idle'} busyLabel="Saving…">
          Save command rules
        </Button>
      </fetcher.Form>
    </Card>
  )
}
