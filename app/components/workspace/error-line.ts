import { Decoration, EditorView, StateEffect, StateField, type DecorationSet } from '@uiw/react-codemirror'
import type { ErrorMark } from '#app/lib/job-file-lines.ts'

/** Replaces the marked lines with these (none clears them); lines are 1-based and in order. */
export const setErrorLines = StateEffect.define<readonly ErrorMark[]>()

/**
 * A CodeMirror extension that paints each line a validation problem points at, with its message
 * as the tooltip. The markers follow edits until the next verdict replaces them.
 */
export const errorLineField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(decorations, tr) {
    let next = decorations.map(tr.changes)
    for (const effect of tr.effects) {
      if (!effect.is(setErrorLines)) continue
      const { doc } = tr.state
      // A line past the end (the text changed since the verdict) marks the last one; two marks
      // may then land on it, and a line decoration set takes each position once, in order.
      const starts = new Map<number, string>()
      for (const { line, message } of effect.value) {
        const from = doc.line(Math.max(1, Math.min(line, doc.lines))).from
        starts.set(from, starts.has(from) ? `${starts.get(from)}\n${message}` : message)
      }
      next = Decoration.set(
        [...starts].map(([from, message]) =>
          Decoration.line({ class: 'cm-error-line', attributes: { title: message } }).range(from),
        ),
        true,
      )
    }
    return next
  },
  provide: (field) => EditorView.decorations.from(field),
})

export const errorLineTheme = EditorView.baseTheme({
  '.cm-error-line': {
    backgroundColor: 'rgba(220, 38, 38, 0.12)',
    boxShadow: 'inset 3px 0 0 rgb(220, 38, 38)',
  },
})
