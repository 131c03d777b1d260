import { X } from 'lucide-react'
import { Dialog } from 'radix-ui'

/** A dialog's ✕ in its top right corner (a form dialog's; a confirmation has its Keep button). */
export function DialogCloseX() {
  return (
    <Dialog.Close
      className="absolute top-4 right-4 rounded p-1 text-stone-600 hover:text-stone-700 dark:text-stone-400 dark:hover:text-stone-200"
      aria-label="Close"
    >
      <X className="size-4" aria-hidden />
    </Dialog.Close>
  )
}
