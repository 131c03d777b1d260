import { ChevronDown } from 'lucide-react'
import { useId, useRef, useState } from 'react'
import { MessageParts } from '#app/components/chat/message-parts.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { cn } from '#app/lib/cn.ts'

// Past about six lines of a transcript's width the instructions fold (decision 0486): a prompt of
// a few thousand words otherwise pushed the agent's steps and answer several screens down.
const FOLD_AFTER_CHARS = 600
const FOLD_AFTER_LINES = 6

/** The words of a message's text parts, or null when it is short enough to show whole. */
export function wordsIfLong(parts: readonly unknown[]): number | null {
  const text = (parts as { type?: string; text?: string }[])
    .map((part) => (part.type === 'text' ? (part.text ?? '') : ''))
    .join('\n')
  const long = text.length > FOLD_AFTER_CHARS || text.split('\n').length > FOLD_AFTER_LINES
  return long ? text.split(/\s+/).filter(Boolean).length : null
}

/**
 * A run's instructions folded to their first lines under a fade, with "Show all instructions"
 * under them: a real button (aria-expanded, aria-controls) that stays where the focus is when it
 * folds them again. The whole text is in the page either way (screen readers and find-in-page read
 * it), and a link in the folded part that takes the keyboard's focus unfolds it.
 */
export function FoldedInstructions({ parts, words }: { parts: readonly unknown[]; words: number }) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  function toggle() {
    setOpen(!open)
    // Folding moves the button up by the length of the prompt: bring it back into view.
    if (open) requestAnimationFrame(() => button.current?.scrollIntoView({ block: 'nearest' }))
  }
  return (
    <div>
      <div
        id={id}
        data-testid="instructions"
        data-folded={!open}
        onFocus={() => setOpen(true)}
        className={cn(
          'relative',
          !open &&
            'max-h-32 overflow-hidden after:absolute after:inset-x-0 after:bottom-0 after:h-12 after:bg-linear-to-t after:from-white after:to-transparent dark:after:from-stone-900',
        )}
      >
        <MessageParts parts={parts} />
      </div>
      <Button
        ref={button}
        variant="ghost"
        size="sm"
        className="mt-1 -ml-2.5"
        aria-expanded={open}
        aria-controls={id}
        onClick={toggle}
      >
        <ChevronDown className={cn('size-4 transition-transform', open && 'rotate-180')} aria-hidden />
        {open ? 'Fold instructions' : `Show all instructions (${words.toLocaleString('en-GB')} words)`}
      </Button>
    </div>
  )
}
