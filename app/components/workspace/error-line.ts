import { Decoration, EditorView, StateEffect, StateField, type DecorationSet } from '@uiw/react-codemirror'

/** Marks (or clears, with null) the line a validation error points at. */
export const setErrorLine = StateEffect.define<{ line: number; message: string } | null>()

/**
 * A CodeMirror extension that paints one line as erroneous, with the message as its tooltip.
 * The marker follows edits until the next verdict replaces it.
 */
export const errorLineField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(decorations, tr) {
    let next = decorations.map(tr.changes)
    for (const effect of tr.effects) {
      if (!effect.is(setErrorLine)) continue
      if (!effect.value) {
        next = Decoration.none
        continue
      }
      const line = tr.state.doc.line(Math.max(1, Math.min(effect.value.line, tr.state.doc.lines)))
      const mark = Decoration.line({ class: 'cm-error-line', attributes: { title: effect.value.message } })
      next = Decoration.set([mark.range(line.from)])
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
