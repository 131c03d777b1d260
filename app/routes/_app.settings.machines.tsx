import { Laptop, Plus } from 'lucide-react'
import { Dialog } from 'radix-ui'
import { useState } from 'react'
import { Link, useFetcher } from 'react-router'
import { TokenRow } from '#app/components/settings/token-row.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Badge, Card, EmptyState } from '#app/components/ui/card.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { useHydrated } from '#app/lib/hydrated.ts'
import { useFocusAfterRemoval } from '#app/lib/use-focus-after-removal.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleMachinesAction, loadMachinesPage } from '#server/pages/settings-machines.ts'
import type { Route } from './+types/_app.settings.machines'

export const meta = () => [{ title: 'Machines · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadMachinesPage(await requirePageCaller(request), request)
}

export async function action({ request }: Route.ActionArgs) {
  return handleMachinesAction(await requirePageCaller(request), request)
}

type Data = Route.ComponentProps['loaderData']

/**
 * The command a person pastes on their computer (POSIX shell; Node 20+). The machine's id and
 * label come from the token, so the command names neither.
 */
function connectCommand(origin: string, token: string) {
  return `${downloadCommand(origin)} && node clockwork-machine.mjs --server ${origin} --token ${token} --dir .`
}

const downloadCommand = (origin: string) =>
  `curl -fsSL ${origin}/_agent-native/machines/client.mjs -o clockwork-machine.mjs`

function ConnectDialog({ origin }: { origin: string }) {
  const fetcher = useFetcher<typeof action>()
  const hydrated = useHydrated()
  const [open, setOpen] = useState(false)
  const data = fetcher.data?.intent === 'create-token' ? fetcher.data : undefined
  const token = data?.ok ? data.data?.token : null
  const machine = data?.ok && data.data && 'machine' in data.data ? data.data.machine : null
  const error = data && !data.ok ? data.error : null
  const command = token ? connectCommand(origin, token) : ''
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button disabled={!hydrated}>
          <Plus className="size-4" aria-hidden /> Connect a machine
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-stone-950/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(40rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-xl border border-stone-200 bg-white p-6 shadow-xl dark:border-stone-700 dark:bg-stone-900">
          <Dialog.Title className="text-lg font-semibold">Connect a machine</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-stone-600 dark:text-stone-400">
            The agent can then run commands and edit files on that computer, only for you. Needs Node 20 or
            newer there.
          </Dialog.Description>
          <p data-testid="machine-reach" className="mt-2 text-sm text-amber-800 dark:text-amber-300">
            Its file tools stay inside the directory you give, but its commands run as your user account on
            that computer: they can read and change anything that account can (<code>ls /</code>,{' '}
            <code>cd ..</code>, <code>cat ../file</code> all work) and use its network. Connect a computer or
            an account that holds nothing the agent should not reach.
          </p>
          {token ? (
            <div className="mt-4 space-y-3">
              <p className="text-sm font-medium">Run this on the computer. The token is shown this once.</p>
              {machine?.id ? (
                <p data-testid="connect-machine" className="text-sm text-stone-600 dark:text-stone-400">
                  It connects as “{machine.label}” (<code>{machine.id}</code>): name it in an environment as{' '}
                  <code>provider: machine:{machine.id}</code>. To move it to another computer, run the command
                  there with <code>--replace</code>.
                </p>
              ) : null}
              <pre
                data-testid="connect-command"
                className="overflow-x-auto rounded-lg bg-stone-100 p-3 text-xs break-all whitespace-pre-wrap dark:bg-stone-800"
              >
                {command}
              </pre>
              <div className="flex justify-end gap-3">
                <Button variant="secondary" onClick={() => void navigator.clipboard.writeText(command)}>
                  Copy command
                </Button>
                <Dialog.Close asChild>
                  <Button>Done</Button>
                </Dialog.Close>
              </div>
            </div>
          ) : (
            <fetcher.Form method="post" className="mt-4 flex flex-wrap items-end gap-3" autoComplete="off">
              <input type="hidden" name="intent" value="create-token" />
              <Field label="Token name" error={error?.message}>
                {({ id, describedBy, invalid }) => (
                  <Input
                    id={id}
                    aria-describedby={describedBy}
                    aria-invalid={invalid}
                    name="name"
                    placeholder="Ana's laptop"
                    required
                    maxLength={80}
                  />
                )}
              </Field>
              <Button type="submit" busy={fetcher.state !== 'idle'} busyLabel="Creating…">
                Create token
              </Button>
            </fetcher.Form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

/** Where the focus goes when the machine or token whose button had it is gone. */
const MACHINES_HEADING = 'machines-heading'
const TOKENS_HEADING = 'machine-tokens-heading'

function DisconnectButton({ id, label }: { id: string; label: string }) {
  const fetcher = useFetcher<typeof action>()
  const disconnect = useFocusAfterRemoval<HTMLFormElement>(MACHINES_HEADING)
  return (
    <fetcher.Form method="post" className="ml-auto" ref={disconnect}>
      <input type="hidden" name="intent" value="disconnect" />
      <input type="hidden" name="id" value={id} />
      <Button
        variant="secondary"
        size="sm"
        type="submit"
        busy={fetcher.state !== 'idle'}
        busyLabel="Disconnecting…"
        aria-label={`Disconnect ${label}`}
      >
        Disconnect
      </Button>
    </fetcher.Form>
  )
}

function MachineRow({ machine, origin }: { machine: Data['machines'][number]; origin: string }) {
  return (
    // A machine's name, id and folder are tenant text: they break anywhere (decision 0370).
    <li className="space-y-1 py-3" data-testid={`machine-${machine.id}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 font-medium [overflow-wrap:anywhere]">{machine.label}</span>
        <span className="min-w-0 text-xs text-stone-600 [overflow-wrap:anywhere] dark:text-stone-400">
          {machine.id}
        </span>
        {machine.online ? <Badge tone="green">online</Badge> : <Badge>offline</Badge>}
        {machine.clientCurrent === false ? <Badge tone="amber">client out of date</Badge> : null}
        <DisconnectButton id={machine.id} label={machine.label} />
      </div>
      <p className="text-sm text-stone-600 [overflow-wrap:anywhere] dark:text-stone-400">
        {machine.os} · <code>{machine.dir}</code> · last seen <RelativeTime value={machine.lastSeenAt} />
      </p>
      {machine.clientCurrent === false ? (
        <p
          data-testid={`machine-${machine.id}-outdated`}
          className="text-sm text-amber-800 [overflow-wrap:anywhere] dark:text-amber-300"
        >
          It runs an older client than this server hands out, without its fixes. Download it again on that
          computer (<code>{downloadCommand(origin)}</code>) and restart it with the same command.
        </p>
      ) : null}
      {machine.uses.length ? (
        <div className="text-xs text-stone-600 dark:text-stone-400">
          <p>Runs using it:</p>
          <ul className="mt-1 space-y-0.5" data-testid={`machine-${machine.id}-runs`}>
            {machine.uses.map((use) => (
              <li key={use.key}>
                {use.href ? (
                  <Link to={use.href} className="underline hover:text-stone-800 dark:hover:text-stone-200">
                    {use.label}
                  </Link>
                ) : (
                  use.label
                )}{' '}
                · <RelativeTime value={use.lastUsedAt} />
                {use.stopped ? ' · stopped' : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="text-xs text-stone-600 dark:text-stone-400">No runs have used it yet.</p>
      )}
    </li>
  )
}

function MachineTokenRow({ token }: { token: Data['tokens'][number] }) {
  return (
    <TokenRow
      token={token}
      intent="revoke-token"
      headingId={TOKENS_HEADING}
      details={
        <span>
          {token.name}
          {token.machineId ? (
            <>
              {' '}
              · connects <code>{token.machineId}</code>
            </>
          ) : null}
        </span>
      }
    />
  )
}

export default function MachinesSettings({ loaderData }: Route.ComponentProps) {
  const { machines, tokens, origin } = loaderData
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Your own computers, connected to run the agent's commands as you, starting in a directory you chose.
          Disconnect one to end its connection and take it off this list.
        </p>
        <ConnectDialog origin={origin} />
      </div>
      <Card className="p-5">
        <h2 id={MACHINES_HEADING} tabIndex={-1} className="mb-2 font-semibold">
          Machines
        </h2>
        {machines.length ? (
          <ul className="divide-y divide-stone-200 dark:divide-stone-800">
            {machines.map((m) => (
              <MachineRow key={m.id} machine={m} origin={origin} />
            ))}
          </ul>
        ) : (
          <EmptyState icon={<Laptop className="size-8" />} title="No machine connected yet">
            Connect one to let the agent work in a directory on your computer.
          </EmptyState>
        )}
      </Card>
      <Card className="p-5">
        <h2 id={TOKENS_HEADING} tabIndex={-1} className="mb-2 font-semibold">
          Tokens
        </h2>
        {tokens.length ? (
          <ul className="divide-y divide-stone-200 dark:divide-stone-800">
            {tokens.map((t) => (
              <MachineTokenRow key={t.id} token={t} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-stone-600 dark:text-stone-400">
            No tokens. Revoking a token ends the connections it made and refuses it from then on.
          </p>
        )}
      </Card>
    </div>
  )
}
