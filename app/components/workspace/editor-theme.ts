/**
 * The editor's colours, from the app's palette (Tailwind's stone, with sky, green and orange for
 * tokens), one set for light and one for dark. Each token colour keeps a contrast of at least
 * 4.5:1 against the card it sits on (white, stone-900), as body text must (WCAG AA).
 */
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language'
import { tags as t } from '@lezer/highlight'
import { EditorView, type Extension } from '@uiw/react-codemirror'

type Palette = {
  text: string
  muted: string
  key: string
  string: string
  literal: string
  keyword: string
  link: string
  cursor: string
  selection: string
  activeLine: string
  gutter: string
  gutterActive: string
}

const LIGHT: Palette = {
  text: '#1c1917', // stone-900
  muted: '#57534e', // stone-600
  key: '#075985', // sky-800
  string: '#166534', // green-800
  literal: '#9a3412', // orange-800
  keyword: '#6b21a8', // purple-800
  link: '#1d4ed8', // blue-700
  cursor: '#1c1917',
  selection: '#d6d3d1', // stone-300
  activeLine: 'rgba(120, 113, 108, 0.08)',
  gutter: '#78716c', // stone-500
  gutterActive: '#292524', // stone-800
}

const DARK: Palette = {
  text: '#f5f5f4', // stone-100
  muted: '#a8a29e', // stone-400
  key: '#7dd3fc', // sky-300
  string: '#86efac', // green-300
  literal: '#fdba74', // orange-300
  keyword: '#d8b4fe', // purple-300
  link: '#93c5fd', // blue-300
  cursor: '#f5f5f4',
  selection: '#44403c', // stone-700
  activeLine: 'rgba(255, 255, 255, 0.05)',
  gutter: '#a8a29e', // stone-400
  gutterActive: '#f5f5f4',
}

function themeOf(p: Palette, dark: boolean): Extension {
  const view = EditorView.theme(
    {
      '&': { color: p.text, backgroundColor: 'transparent' },
      '.cm-content': { caretColor: p.cursor },
      '.cm-cursor, .cm-dropCursor': { borderLeftColor: p.cursor },
      '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection':
        { backgroundColor: p.selection },
      '.cm-activeLine': { backgroundColor: p.activeLine },
      '.cm-gutters': {
        backgroundColor: 'transparent',
        color: p.gutter,
        borderRight: '1px solid rgba(120, 113, 108, 0.25)',
      },
      '.cm-activeLineGutter': { backgroundColor: p.activeLine, color: p.gutterActive },
      '.cm-matchingBracket, &.cm-focused .cm-matchingBracket': {
        backgroundColor: p.selection,
        outline: 'none',
      },
    },
    { dark },
  )
  const highlight = HighlightStyle.define(
    [
      { tag: [t.definition(t.propertyName), t.propertyName], color: p.key },
      { tag: [t.string, t.special(t.string), t.inserted], color: p.string },
      { tag: [t.number, t.bool, t.atom, t.null, t.labelName, t.typeName], color: p.literal },
      { tag: [t.keyword, t.modifier], color: p.keyword },
      { tag: [t.meta, t.comment, t.separator, t.punctuation, t.processingInstruction], color: p.muted },
      { tag: t.comment, fontStyle: 'italic' },
      { tag: t.heading, fontWeight: '700', color: p.text },
      { tag: t.emphasis, fontStyle: 'italic' },
      { tag: t.strong, fontWeight: '700' },
      { tag: t.strikethrough, textDecoration: 'line-through' },
      { tag: [t.link, t.url], color: p.link, textDecoration: 'underline' },
      { tag: [t.content, t.monospace], color: p.text },
      { tag: t.invalid, color: dark ? '#fca5a5' : '#b91c1c' },
    ],
    { themeType: dark ? 'dark' : 'light' },
  )
  return [view, syntaxHighlighting(highlight)]
}

/** The editor theme for the app's current mode. */
export const editorTheme = { light: themeOf(LIGHT, false), dark: themeOf(DARK, true) }
