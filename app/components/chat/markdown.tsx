import ReactMarkdown from 'react-markdown'
import remarkGfm from 'remark-gfm'

/** Markdown from the model, without raw HTML (react-markdown drops it), links opened safely. */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="prose-chat space-y-2 break-words [&_code]:rounded [&_code]:bg-stone-100 [&_code]:px-1 [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_ul]:list-disc [&_ul]:pl-5 dark:[&_code]:bg-stone-800">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        components={{
          a: ({ href, children }) => (
            <a href={href} className="underline underline-offset-2" rel="noopener noreferrer">
              {children}
            </a>
          ),
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  )
}
