import ReactMarkdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { useHydrated } from '#app/lib/hydrated.ts'

/**
 * How Markdown's elements look in chat and transcripts. Tailwind's reset strips every default
 * style, so headings, tables, code blocks and quotes are given theirs here (sized for a chat
 * column: headings stay close to the body text).
 */
const COMPONENTS: Components = {
  a: ({ href, children }) => (
    <a href={href} className="underline underline-offset-2" rel="noopener noreferrer">
      {children}
    </a>
  ),
  h1: ({ children }) => <h1 className="mt-3 text-lg font-semibold">{children}</h1>,
  h2: ({ children }) => <h2 className="mt-3 text-base font-semibold">{children}</h2>,
  h3: ({ children }) => <h3 className="mt-2 font-semibold">{children}</h3>,
  h4: ({ children }) => <h4 className="mt-2 font-semibold">{children}</h4>,
  h5: ({ children }) => <h5 className="mt-2 font-medium">{children}</h5>,
  h6: ({ children }) => <h6 className="mt-2 font-medium text-stone-600 dark:text-stone-400">{children}</h6>,
  // A wide table scrolls inside its own box instead of widening the chat.
  table: ({ children }) => (
    <div className="overflow-x-auto">
      <table className="border-collapse text-left text-[13px]">{children}</table>
    </div>
  ),
  th: ({ children, style }) => (
    <th
      style={style}
      className="border border-stone-300 bg-stone-100 px-2 py-1 font-semibold dark:border-stone-700 dark:bg-stone-800"
    >
      {children}
    </th>
  ),
  td: ({ children, style }) => (
    <td style={style} className="border border-stone-300 px-2 py-1 align-top dark:border-stone-700">
      {children}
    </td>
  ),
  pre: ({ children }) => (
    <pre className="overflow-x-auto rounded-md bg-stone-100 p-2 font-mono text-[13px] dark:bg-stone-800 [&_code]:bg-transparent [&_code]:p-0">
      {children}
    </pre>
  ),
  code: ({ children }) => (
    <code className="rounded bg-stone-100 px-1 font-mono text-[0.9em] dark:bg-stone-800">{children}</code>
  ),
  blockquote: ({ children }) => (
    <blockquote className="border-l-2 border-stone-300 pl-3 text-stone-600 dark:border-stone-600 dark:text-stone-400">
      {children}
    </blockquote>
  ),
  hr: () => <hr className="border-stone-200 dark:border-stone-700" />,
}

/**
 * Markdown from the model, without raw HTML (react-markdown drops it), links opened safely.
 *
 * Parsed in the browser only: the server and the hydration pass show the plain text. The text is a
 * tenant's (a run's transcript opens with the job's instructions) and Markdown parsing is quadratic
 * on some of it: `a*` 30,000 times took the server's one event loop for about half a minute.
 */
export function Markdown({ text }: { text: string }) {
  const hydrated = useHydrated()
  if (!hydrated) return <div className="break-words whitespace-pre-wrap">{text}</div>
  return (
    <div className="prose-chat space-y-2 break-words [&_ol]:list-decimal [&_ol]:pl-5 [&_ul]:list-disc [&_ul]:pl-5">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={COMPONENTS}>
        {text}
      </ReactMarkdown>
    </div>
  )
}
