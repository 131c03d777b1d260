import { CalendarClock, ChevronRight, FileText, Folder, Lock } from 'lucide-react'
import { Link } from 'react-router'
import { cn } from '#app/lib/cn.ts'
import { buildFileTree, type TreeNode } from '#app/lib/file-tree.ts'

export type TreeEntry = { path: string; kind: 'file' | 'job'; canEdit: boolean; jobId?: string }
type Selected = { scope: string; path: string } | null

type HrefOf = (scope: string, path: string) => string

/**
 * A page's file tree and the open file: side by side (the tree 15rem) once the page's column is
 * 42rem wide, stacked below that. By the column, not the window: beside the open chat a 1280 px
 * window leaves the column 33rem, where the file would get 17 (decision 0529).
 */
export const TREE_BESIDE_FILE = 'grid items-start gap-4 @2xl:grid-cols-[15rem_minmax(0,1fr)]'

const workspaceHref: HrefOf = (scope, path) => `/workspace?${new URLSearchParams({ scope, path })}`

/**
 * One workspace (Personal or Shared) as a folder tree; every file is a link that opens it. The
 * environment page reuses it for an environment's files (`hrefOf`, and its `folders`, empty ones too).
 */
export function FileTreeSection({
  scope,
  title,
  entries,
  selected,
  folders,
  hrefOf = workspaceHref,
}: {
  scope: 'personal' | 'shared'
  title: string
  entries: readonly TreeEntry[]
  selected: Selected
  folders?: readonly string[]
  hrefOf?: HrefOf
}) {
  const nodes = buildFileTree(entries, folders)
  return (
    <section aria-label={`${title} files`}>
      <h2 className="px-2 pb-1 text-xs font-semibold tracking-wide text-stone-600 dark:text-stone-400 uppercase">
        {title}
      </h2>
      <ul role="list" className="text-sm">
        {nodes.map((node) => (
          <TreeItem key={node.path} node={node} scope={scope} selected={selected} depth={0} hrefOf={hrefOf} />
        ))}
      </ul>
    </section>
  )
}

function TreeItem({
  node,
  scope,
  selected,
  depth,
  hrefOf,
}: {
  node: TreeNode<TreeEntry>
  scope: string
  selected: Selected
  depth: number
  hrefOf: HrefOf
}) {
  const pad = { paddingLeft: `${0.5 + depth * 0.9}rem` }
  if (node.kind === 'folder') {
    return (
      <li>
        <details open className="group">
          <summary
            style={pad}
            className="flex cursor-pointer items-center gap-1.5 rounded-md py-1 pr-2 text-stone-700 select-none hover:bg-stone-100 dark:text-stone-300 dark:hover:bg-stone-800"
          >
            <ChevronRight
              className="size-3.5 shrink-0 text-stone-600 dark:text-stone-400 transition-transform group-open:rotate-90"
              aria-hidden
            />
            <Folder className="size-4 shrink-0 text-stone-600 dark:text-stone-400" aria-hidden />
            {node.name}/
          </summary>
          {node.children.length === 0 ? (
            <p
              style={{ paddingLeft: `${1.9 + (depth + 1) * 0.9}rem` }}
              className="py-1 text-xs text-stone-600 dark:text-stone-400"
            >
              empty
            </p>
          ) : (
            <ul role="list">
              {node.children.map((child) => (
                <TreeItem
                  key={child.path}
                  node={child}
                  scope={scope}
                  selected={selected}
                  depth={depth + 1}
                  hrefOf={hrefOf}
                />
              ))}
            </ul>
          )}
        </details>
      </li>
    )
  }
  const active = selected?.scope === scope && selected.path === node.path
  const Icon = node.entry.kind === 'job' ? CalendarClock : FileText
  return (
    <li>
      <Link
        to={hrefOf(scope, node.path)}
        aria-current={active ? 'page' : undefined}
        style={{ paddingLeft: `${1.4 + depth * 0.9}rem` }}
        className={cn(
          'flex items-start gap-1.5 rounded-md py-1 pr-2',
          active
            ? 'bg-brand-50 font-medium text-brand-800 dark:bg-brand-900/40 dark:text-brand-200'
            : 'text-stone-700 hover:bg-stone-100 dark:text-stone-300 dark:hover:bg-stone-800',
        )}
      >
        <Icon
          className={cn(
            'mt-0.5 size-4 shrink-0',
            node.entry.kind === 'job' ? 'text-brand-600' : 'text-stone-600 dark:text-stone-400',
          )}
          aria-hidden
        />
        {/* A file's name is tenant text: it wraps, anywhere if it must, rather than hide its end (decision 0370). */}
        <span className="min-w-0 [overflow-wrap:anywhere]">{node.name}</span>
        {!node.entry.canEdit ? (
          <Lock
            className="mt-1 ml-auto size-3 shrink-0 text-stone-600 dark:text-stone-400"
            aria-label="read-only"
          />
        ) : null}
      </Link>
    </li>
  )
}
