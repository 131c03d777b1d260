import { markdown } from '@codemirror/lang-markdown'
import { yaml, yamlFrontmatter } from '@codemirror/lang-yaml'
import CodeMirror, { EditorView, type ReactCodeMirrorRef } from '@uiw/react-codemirror'
import { useEffect, useMemo, useRef } from 'react'
import { useDarkClass } from '#app/lib/use-dark.ts'
import { editorTheme } from './editor-theme.ts'
import type { ErrorMark } from '#app/lib/job-file-lines.ts'
import { errorLineField, errorLineTheme, setErrorLines } from './error-line.ts'

type Props = {
  path: string
  value: string
  onChange: (text: string) => void
  readOnly: boolean
  /** The lines to mark as erroneous; keep the array stable while they do not change. */
  errorLines: readonly ErrorMark[]
}

/** Markdown with YAML frontmatter for .md (job files), YAML for .yaml, plain text otherwise. */
function languageFor(path: string) {
  if (/\.(md|markdown)$/i.test(path)) return [yamlFrontmatter({ content: markdown() })]
  if (/\.ya?ml$/i.test(path)) return [yaml()]
  return []
}

/**
 * CodeMirror 6 for workspace files. Loaded lazily in the browser only (it is large and needs the
 * DOM). Every line a validation problem points at is highlighted.
 */
export default function CodeEditor({ path, value, onChange, readOnly, errorLines }: Props) {
  // The app's mode (the person's theme choice), which may differ from the system's.
  const dark = useDarkClass()
  const editor = useRef<ReactCodeMirrorRef>(null)
  const marked = useRef(errorLines)
  const extensions = useMemo(
    () => [
      ...languageFor(path),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': `Contents of ${path}` }),
      errorLineField,
      errorLineTheme,
    ],
    [path],
  )
  useEffect(() => {
    marked.current = errorLines
    editor.current?.view?.dispatch({ effects: setErrorLines.of(errorLines) })
  }, [errorLines])
  return (
    <CodeMirror
      ref={editor}
      value={value}
      onChange={onChange}
      extensions={extensions}
      readOnly={readOnly}
      editable={!readOnly}
      theme={dark ? editorTheme.dark : editorTheme.light}
      minHeight="24rem"
      maxHeight="70vh"
      onCreateEditor={(view) => view.dispatch({ effects: setErrorLines.of(marked.current) })}
      // Tab moves focus on, as everywhere else on the page (and YAML forbids tab indentation anyway).
      indentWithTab={false}
      basicSetup={{ foldGutter: false, highlightActiveLine: !readOnly }}
      className="text-[13px]"
    />
  )
}
