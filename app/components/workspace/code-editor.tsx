import { markdown } from '@codemirror/lang-markdown'
import { yaml, yamlFrontmatter } from '@codemirror/lang-yaml'
import CodeMirror, { EditorView, type ReactCodeMirrorRef } from '@uiw/react-codemirror'
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react'
import { cardTheme, errorLineField, errorLineTheme, setErrorLine } from './error-line.ts'

type Props = {
  path: string
  value: string
  onChange: (text: string) => void
  readOnly: boolean
  errorLine: { line: number; message: string } | null
}

const darkQuery = '(prefers-color-scheme: dark)'
function useDarkMode(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const media = window.matchMedia(darkQuery)
      media.addEventListener('change', notify)
      return () => media.removeEventListener('change', notify)
    },
    () => window.matchMedia(darkQuery).matches,
    () => false,
  )
}

/** Markdown with YAML frontmatter for .md (job files), YAML for .yaml, plain text otherwise. */
function languageFor(path: string) {
  if (/\.(md|markdown)$/i.test(path)) return [yamlFrontmatter({ content: markdown() })]
  if (/\.ya?ml$/i.test(path)) return [yaml()]
  return []
}

/**
 * CodeMirror 6 for workspace files. Loaded lazily in the browser only (it is large and needs the
 * DOM). The erroneous line of a job file is highlighted.
 */
export default function CodeEditor({ path, value, onChange, readOnly, errorLine }: Props) {
  const dark = useDarkMode()
  const editor = useRef<ReactCodeMirrorRef>(null)
  const marked = useRef(errorLine)
  const extensions = useMemo(
    () => [
      ...languageFor(path),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': `Contents of ${path}` }),
      errorLineField,
      errorLineTheme,
      cardTheme,
    ],
    [path],
  )
  useEffect(() => {
    marked.current = errorLine
    editor.current?.view?.dispatch({ effects: setErrorLine.of(errorLine) })
  }, [errorLine])
  return (
    <CodeMirror
      ref={editor}
      value={value}
      onChange={onChange}
      extensions={extensions}
      readOnly={readOnly}
      editable={!readOnly}
      theme={dark ? 'dark' : 'light'}
      minHeight="24rem"
      maxHeight="70vh"
      onCreateEditor={(view) => view.dispatch({ effects: setErrorLine.of(marked.current) })}
      // Tab moves focus on, as everywhere else on the page (and YAML forbids tab indentation anyway).
      indentWithTab={false}
      basicSetup={{ foldGutter: false, highlightActiveLine: !readOnly }}
      className="text-[13px]"
    />
  )
}
