/** Turns a flat list of workspace paths into folders and files for the tree view. */
export type TreeFile<E> = { kind: 'file'; name: string; path: string; entry: E }
export type TreeFolder<E> = { kind: 'folder'; name: string; path: string; children: TreeNode<E>[] }
export type TreeNode<E> = TreeFile<E> | TreeFolder<E>

/** Folders first, then files, each alphabetical; `folders` (default `jobs/`) show even when empty. */
export function buildFileTree<E extends { path: string }>(
  entries: readonly E[],
  folders: readonly string[] = ['jobs'],
): TreeNode<E>[] {
  const root: TreeFolder<E> = { kind: 'folder', name: '', path: '', children: [] }
  const folderAt = (parts: string[]): TreeFolder<E> => {
    let folder = root
    parts.forEach((name, i) => {
      const path = parts.slice(0, i + 1).join('/')
      let next = folder.children.find((c): c is TreeFolder<E> => c.kind === 'folder' && c.name === name)
      if (!next) {
        next = { kind: 'folder', name, path, children: [] }
        folder.children.push(next)
      }
      folder = next
    })
    return folder
  }
  for (const folder of folders) folderAt(folder.split('/').filter(Boolean))
  for (const entry of entries) {
    const parts = entry.path.split('/').filter(Boolean)
    const name = parts.pop()
    if (!name) continue
    folderAt(parts).children.push({ kind: 'file', name, path: entry.path, entry })
  }
  sortTree(root)
  return root.children
}

function sortTree<E>(folder: TreeFolder<E>) {
  folder.children.sort((a, b) =>
    a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'folder' ? -1 : 1,
  )
  for (const child of folder.children) if (child.kind === 'folder') sortTree(child)
}
