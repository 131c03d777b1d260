/**
 * The look every centred dialog shares (confirmations, the leave question, the workspace's create
 * dialogs), so they read as one family in both themes; each dialog keeps its own content.
 */

/** The dimmed page behind a dialog. */
export const dialogOverlayClass = 'fixed inset-0 z-40 bg-stone-950/40 backdrop-blur-[1px]'

/** The dialog's panel: centred, at most 28rem wide and 1rem clear of a phone's edges. */
export const dialogPanelClass =
  'fixed top-1/2 left-1/2 z-50 w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-xl border border-stone-200 bg-white p-6 shadow-xl dark:border-stone-700 dark:bg-stone-900'
