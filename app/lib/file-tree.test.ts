import { describe, expect, it } from 'vitest'
import { buildFileTree, type TreeNode } from './file-tree.ts'

const names = (nodes: TreeNode<{ path: string }>[]): unknown[] =>
  nodes.map((n) => (n.kind === 'folder' ? { [n.name]: names(n.children) } : n.name))

describe('buildFileTree', () => {
  it('nests paths into folders, folders first, and always shows jobs/', () => {
    const tree = buildFileTree([{ path: 'readme.md' }, { path: 'notes/b.md' }, { path: 'notes/a.md' }])
    expect(names(tree)).toEqual([{ jobs: [] }, { notes: ['a.md', 'b.md'] }, 'readme.md'])
  })
  it('puts job files in jobs/', () => {
    expect(names(buildFileTree([{ path: 'jobs/x.md' }]))).toEqual([{ jobs: ['x.md'] }])
  })
})
