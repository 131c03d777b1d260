import { AlertCircle, Play, ShieldX, TerminalSquare } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Badge, Card } from '#app/components/ui/card.tsx'
import { inputClass } from '#app/components/ui/field.tsx'
import type { ActionData } from '#app/lib/action-errors.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import type { runPersonCommand } from '#server/environments/browse/browse.ts'
import { ChangeLine } from './file-changes.tsx'
import { cn } from '#app/lib/cn.ts'

type Ran = Awaited<ReturnType<typeof runPersonCommand>>

function Output({ label, text, tone }: { label: string; text: string; tone?: 'error' }) {
  if (!text) return null
  return (
    <div>
      <h4 className="mb-1 text-xs font-semibold tracking-wide text-stone-600 dark:text-stone-400 uppercase">
        {label}
      </h4>
      <pre
        data-testid={`command-${label}`}
        className={cn(
          // A long unbroken token (a path, a hash) breaks too, rather than scroll sideways (decision 0370).
          'max-h-96 overflow-auto rounded-lg bg-stone-950 p-3 font-mono text-xs whitespace-pre-wrap text-stone-100 [overflow-wrap:anywhere]',
          tone === 'error' && 'text-red-200',
        )}
      >
        {text}
      </pre>
    </div>
  )
}

function Result({ ran }: { ran: Ran }) {
  const { result } = ran
  const blocked = result.networkBlocked ?? []
  // A refused connection is no success, whatever the exit code says (curl exits 0 on the refusal page).
  const ok = result.exitCode === 0 && blocked.length === 0
  return (
    <div className="mt-4 space-y-3" data-testid="command-result">
      <div className="flex flex-wrap items-center gap-2 text-sm" role="status">
        {blocked.length > 0 ? (
          <Badge tone="red" data-testid="network-refused">
            <ShieldX className="size-3" aria-hidden /> Network refused
          </Badge>
        ) : null}
        <Badge tone={ok ? 'green' : blocked.length > 0 && result.exitCode === 0 ? 'neutral' : 'red'}>
          {result.timedOut
            ? 'Timed out'
            : result.exitCode === null
              ? `Killed (${result.signal})`
              : `Exit ${result.exitCode}`}
        </Badge>
        <span className="text-stone-600 dark:text-stone-400">{result.durationMs} ms</span>
        {ran.decision === 'approved' ? (
          <Badge tone="amber" title="The policy asks before this command; you typing it is the approval">
            Approved by you · {ran.rule}
          </Badge>
        ) : null}
        {result.disk.overQuota ? <Badge tone="red">Over the disk quota</Badge> : null}
      </div>
      {blocked.length > 0 ? (
        <p className="text-sm text-red-700 dark:text-red-400" data-testid="network-refusal">
          The sandbox refused connections to <code className="font-mono">{blocked.join(', ')}</code>: not in
          this environment’s allowlist. Add the host under{' '}
          <code className="font-mono">policy.network.allow</code> in its definition to let commands reach it.
        </p>
      ) : null}
      <Output label="stdout" text={result.stdout} />
      <Output label="stderr" text={result.stderr} tone="error" />
      {!result.stdout && !result.stderr ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">No output.</p>
      ) : null}
      {ran.files.length > 0 ? (
        <div>
          <h4 className="mb-1 text-xs font-semibold tracking-wide text-stone-600 dark:text-stone-400 uppercase">
            Files changed ({ran.files.length})
          </h4>
          <ul className="space-y-0.5 text-sm" data-testid="command-files">
            {ran.files.map((f) => (
              <li key={f.path}>
                <ChangeLine type={f.type} path={f.path} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  )
}

/**
 * The command box: a person runs one command line in the environment, under the same policy as the
 * agent (a command the policy asks about runs, since typing it is the approval; a denied one is
 * refused with its rule). The page's action runs it; every attempt lands in the audit log.
 */
export function CommandBox({ scope, canUse }: { scope: string; canUse: boolean }) {
  const fetcher = useFetcher<ActionData>()
  const hydrated = useHydrated()
  const input = useRef<HTMLInputElement>(null)
  const busy = fetcher.state !== 'idle'
  const data = fetcher.data
  const ran = data?.ok ? (data.data as Ran) : null
  const error = data && !data.ok ? data.error : null
  useEffect(() => {
    if (fetcher.state === 'idle' && data) input.current?.focus()
  }, [fetcher.state, data])
  return (
    <Card className="p-5">
      <h2 className="mb-3 flex items-center gap-2 font-semibold">
        <TerminalSquare className="size-4 text-stone-600 dark:text-stone-400" aria-hidden /> Run a command
      </h2>
      {canUse ? (
        <fetcher.Form method="post" className="flex flex-wrap gap-2" aria-busy={busy}>
          <input type="hidden" name="intent" value="run" />
          <input type="hidden" name="scope" value={scope} />
          <label htmlFor="command" className="sr-only">
            Command
          </label>
          <input
            ref={input}
            id="command"
            name="command"
            required
            autoComplete="off"
            spellCheck={false}
            placeholder="node --version"
            aria-invalid={Boolean(error)}
            aria-describedby={error ? 'command-error' : undefined}
            className={cn(inputClass, 'w-auto min-w-0 flex-1 font-mono')}
          />
          <Button
            type="submit"
            disabled={!hydrated}
            busy={busy}
            busyLabel={
              <>
                <Play className="size-4" aria-hidden /> Running…
              </>
            }
          >
            <Play className="size-4" aria-hidden /> Run
          </Button>
        </fetcher.Form>
      ) : (
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Only its creator and the organisation’s admins may run commands in this shared environment.
        </p>
      )}
      {error ? (
        <p
          id="command-error"
          role="alert"
          className="mt-3 flex items-start gap-2 text-sm text-red-700 dark:text-red-400"
        >
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
          {error.message}
        </p>
      ) : null}
      {ran ? <Result ran={ran} /> : null}
    </Card>
  )
}
