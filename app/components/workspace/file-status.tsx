import { AlertCircle, AlertTriangle, CheckCircle2, Loader2, RotateCcw } from 'lucide-react'
import { Button } from '#app/components/ui/button.tsx'
import type { ErrorMark } from '#app/lib/job-file-lines.ts'
import type { FileVerdict } from '#server/pages/workspace-validate.ts'

export type Verdict = FileVerdict

/**
 * Below the editor: is this job file or environment definition (`validated` names which) valid,
 * checked as you type, and what went wrong saving.
 */
export function FileStatus({
  validated,
  checking,
  verdict,
  marks,
  saveError,
  conflict,
  onLoadLatest,
}: {
  validated: string | null
  checking: boolean
  verdict: Verdict | null
  marks: readonly ErrorMark[]
  saveError: string | null
  conflict: string | null
  onLoadLatest: () => void
}) {
  if (!validated && !saveError && !conflict) return null
  return (
    <div className="space-y-2 border-t border-stone-200 px-4 py-2.5 text-sm dark:border-stone-800">
      {validated ? (
        <div
          role="status"
          aria-live="polite"
          data-testid="file-verdict"
          className="flex min-h-6 items-start gap-2"
        >
          {checking ? (
            <span className="flex items-center gap-2 text-stone-600 dark:text-stone-400">
              <Loader2 className="size-4 animate-spin" aria-hidden /> Checking…
            </span>
          ) : verdict?.valid ? (
            <span className="flex items-center gap-2 text-emerald-700 dark:text-emerald-400">
              <CheckCircle2 className="size-4 shrink-0" aria-hidden /> Valid {validated}
              {verdict.description ? (
                <span className="text-stone-600 dark:text-stone-400">· {verdict.description}</span>
              ) : null}
            </span>
          ) : verdict ? (
            <span className="flex min-w-0 items-start gap-2 text-red-700 dark:text-red-400">
              <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
              <ul className="min-w-0 space-y-1 break-words">
                {verdict.problems.map((problem) => (
                  <li key={problem.message}>
                    <ProblemLine problem={problem} marks={marks} />
                  </li>
                ))}
              </ul>
            </span>
          ) : null}
        </div>
      ) : null}
      {conflict ? (
        <div
          role="alert"
          className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
        >
          <p className="flex items-start gap-2">
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden /> {conflict}
          </p>
          <Button variant="secondary" size="sm" className="mt-2" onClick={onLoadLatest}>
            <RotateCcw className="size-3.5" aria-hidden /> Load their version (drops your changes)
          </Button>
        </div>
      ) : saveError ? (
        <p role="alert" className="flex items-start gap-2 text-red-700 dark:text-red-400">
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden /> Not saved: {saveError}
        </p>
      ) : null}
    </div>
  )
}

/** One problem, led by its line when the server's message does not already say it. */
function ProblemLine({ problem, marks }: { problem: { message: string }; marks: readonly ErrorMark[] }) {
  const line = marks.find((mark) => mark.message.split('\n').includes(problem.message))?.line
  return (
    <>
      {line && !problem.message.startsWith('Line ') ? <strong>Line {line}: </strong> : null}
      {problem.message}
    </>
  )
}
