import { Boxes, CalendarClock, Eye, Save } from 'lucide-react'
import { lazy, Suspense, useEffect, useMemo, useState } from 'react'
import { Link, useFetcher } from 'react-router'
import { toast } from 'sonner'
import { Badge } from '#app/components/ui/card.tsx'
import { Button, buttonClass } from '#app/components/ui/button.tsx'
import { ConfirmDeleteDialog } from '#app/components/ui/confirm-delete-dialog.tsx'
import type { ActionData } from '#app/lib/action-errors.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import { environmentNameOf, errorMarks, isJobFilePath } from '#app/lib/job-file-lines.ts'
import { hashText } from '#app/lib/text-hash.ts'
import { useConfirmLeave } from '#app/lib/use-confirm-leave.tsx'
import { FileStatus, type Verdict } from './file-status.tsx'

const NO_MARKS: never[] = []

const CodeEditor = lazy(() => import('./code-editor.tsx'))

export type OpenFile = {
  path: string
  scope: 'personal' | 'shared'
  content: string
  version: number
  canEdit: boolean
  jobId?: string
}

/**
 * What the last check said about the text it was asked about (`askedToken`). A check the server
 * refused (unstorable text in the draft, named by the page form) is a verdict too: without it the
 * status line waited for an answer that had come.
 */
function verdictOf(data: ActionData | undefined, askedToken: string | null): Verdict | null {
  if (!data) return null
  if (data.ok) return data.data as Verdict
  if (askedToken === null) return null
  const { message, field, fields } = data.error
  return {
    token: askedToken,
    valid: false,
    message,
    field,
    problems: fields?.length ? fields : [{ field, message }],
  }
}

/** Pauses after typing before asking the server about the file. */
const VALIDATE_DEBOUNCE_MS = 300

/**
 * One open file: editor, live validation for job files, save with If-Match (a 409 keeps the text
 * and explains), delete. The page keys it by scope and path, so each file gets fresh state.
 */
export function FilePanel({ file }: { file: OpenFile }) {
  const save = useFetcher<ActionData>()
  const validator = useFetcher<ActionData>()
  const [base, setBase] = useState({ version: file.version, content: file.content })
  const [draft, setDraft] = useState(file.content)
  // The text the last check was asked about: a refused check (a 400) carries no token of its own.
  const [askedToken, setAskedToken] = useState<string | null>(null)
  const [handled, setHandled] = useState<ActionData>()
  const dirty = draft !== base.content
  const isJob = isJobFilePath(file.path)
  const environment = environmentNameOf(file.path)
  const validated = isJob ? 'job file' : environment ? 'environment definition' : null
  const hydrated = useHydrated()

  if (save.state === 'idle' && save.data && save.data !== handled) {
    setHandled(save.data)
    const saved = save.data.ok ? (save.data.data as { resource?: OpenFile }).resource : undefined
    if (saved) {
      setBase({ version: saved.version, content: saved.content })
      setDraft(saved.content)
    }
  }
  // Someone else's change with nothing of ours to lose: show it.
  if (save.state === 'idle' && !dirty && file.version > base.version) {
    setBase({ version: file.version, content: file.content })
    setDraft(file.content)
  }
  useEffect(() => {
    if (save.state === 'idle' && save.data?.ok) toast.success(`Saved ${file.path}`)
  }, [save.state, save.data, file.path])

  const token = hashText(draft)
  const submitValidation = validator.submit
  useEffect(() => {
    if (!validated || !file.canEdit) return
    const timer = setTimeout(() => {
      setAskedToken(token)
      void submitValidation(
        { intent: 'validate', scope: file.scope, path: file.path, content: draft, token },
        { method: 'post' },
      )
    }, VALIDATE_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [draft, token, validated, file.canEdit, file.scope, file.path, submitValidation])
  // While a check is out, its refusal is not yet for the text it was asked about.
  const verdict = verdictOf(validator.data, validator.state === 'idle' ? askedToken : null)
  const checking = Boolean(validated) && file.canEdit && verdict?.token !== token
  const marks = verdict && !verdict.valid ? errorMarks(draft, verdict.problems) : NO_MARKS
  // The editor re-marks when the array changes: keep one array while the marks are the same
  // (the draft changes on every keystroke, the verdict only after the pause).
  const marksKey = JSON.stringify(marks)
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by content on purpose
  const errorLines = useMemo(() => marks, [marksKey])

  const saveError = save.data && !save.data.ok ? save.data.error : null
  const conflict = saveError?.status === 409 && base.version < file.version ? saveError.message : null
  const onSave = () => {
    if (!file.canEdit || !dirty || save.state !== 'idle') return
    void save.submit(
      { intent: 'save', scope: file.scope, path: file.path, content: draft, version: String(base.version) },
      { method: 'post' },
    )
  }
  const leaveDialog = useConfirmLeave(
    dirty && save.state === 'idle',
    `Discard your unsaved changes to ${file.path}?`,
  )

  return (
    <div className="flex min-w-0 flex-col">
      {leaveDialog}
      <div className="flex flex-wrap items-center gap-2 border-b border-stone-200 px-4 py-2.5 dark:border-stone-800">
        <h2 className="min-w-0 truncate font-mono text-sm">
          <span className="text-stone-600 dark:text-stone-400">{file.scope}/</span>
          {file.path}
        </h2>
        {isJob ? <Badge tone="brand">Job file</Badge> : null}
        {environment ? <Badge tone="blue">Environment</Badge> : null}
        {dirty ? <Badge tone="amber">Unsaved</Badge> : null}
        <div className="ml-auto flex items-center gap-1">
          {file.jobId ? (
            <Link to={`/jobs/${file.jobId}`} className={buttonClass('ghost', 'sm')}>
              <CalendarClock className="size-4" aria-hidden /> Open job
            </Link>
          ) : null}
          {environment ? (
            <Link
              to={`/environments/${environment}?scope=${file.scope}`}
              className={buttonClass('ghost', 'sm')}
            >
              <Boxes className="size-4" aria-hidden /> Open environment
            </Link>
          ) : null}
          {file.canEdit ? (
            <>
              <ConfirmDeleteDialog
                trigger={{ variant: 'ghost', label: `Delete ${file.path}` }}
                title={`Delete ${file.path}?`}
                description={
                  isJob
                    ? 'This is a job file: deleting it deletes the job, which stops running. Its audit trail is kept.'
                    : `The file is removed from the ${file.scope} workspace. This cannot be undone.`
                }
                confirm="Delete"
                fields={{ scope: file.scope, path: file.path }}
              />
              <Button
                size="sm"
                onClick={onSave}
                disabled={!dirty || save.state !== 'idle'}
                title="Save (Ctrl+S)"
              >
                <Save className="size-4" aria-hidden /> {save.state !== 'idle' ? 'Saving…' : 'Save'}
              </Button>
            </>
          ) : null}
        </div>
      </div>
      {!file.canEdit ? (
        <p
          className="flex items-center gap-2 bg-sky-50 px-4 py-2 text-sm text-sky-800 dark:bg-sky-950 dark:text-sky-300"
          data-testid="read-only-notice"
        >
          <Eye className="size-4" aria-hidden /> Read-only: only the job’s creator and the organisation’s
          admins can change it.
        </p>
      ) : null}
      <div
        className="min-h-96"
        onKeyDown={(e) => {
          // Ctrl+S / Cmd+S saves, as in any editor, instead of the browser's "save page".
          if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
            e.preventDefault()
            onSave()
          }
        }}
      >
        {hydrated ? (
          <Suspense fallback={<EditorFallback text={draft} />}>
            <CodeEditor
              path={file.path}
              value={draft}
              onChange={setDraft}
              readOnly={!file.canEdit}
              errorLines={errorLines}
            />
          </Suspense>
        ) : (
          <EditorFallback text={draft} />
        )}
      </div>
      <FileStatus
        validated={file.canEdit ? validated : null}
        checking={checking}
        verdict={verdict}
        marks={errorLines}
        saveError={saveError && saveError.status !== 409 ? saveError.message : null}
        conflict={conflict}
        onLoadLatest={() => {
          setBase({ version: file.version, content: file.content })
          setDraft(file.content)
        }}
      />
    </div>
  )
}

/** The text, unstyled, while the editor loads (and for the server render). */
function EditorFallback({ text }: { text: string }) {
  return (
    <pre
      className="min-h-96 overflow-auto px-4 py-3 font-mono text-[13px] whitespace-pre-wrap text-stone-600 dark:text-stone-300"
      aria-busy
    >
      {text}
    </pre>
  )
}
