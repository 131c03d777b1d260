/**
 * The workspace tool: list, read and write the person's workspace files (personal and the
 * organisation's shared ones) through the resources service, with the caller's rights. Job files
 * (jobs/<name>.md) can be read here but are changed only through manage-jobs, so "create never
 * overwrites" and "delete needs a confirmation" cannot be sidestepped by writing a file.
 */
import { tool } from 'ai'
import { z } from 'zod'
import { badRequest } from '../../lib/errors.ts'
import { listResources, readResource, writeResource } from '../../resources/service.ts'
import { toToolFailure, type ToolContext } from '../tool-context.ts'

// Long files are cut for the model's context; the person can still open them in the workspace.
const MAX_READ_CHARS = 20_000

const WorkspaceInput = z.object({
  action: z
    .enum(['list', 'read', 'write'])
    .describe('list files, read one, or write (create or replace) one'),
  scope: z
    .enum(['personal', 'shared'])
    .optional()
    .describe("personal: the person's own files (default); shared: the organisation's shared files"),
  path: z.string().optional().describe('read/write: a relative path such as notes/signups.md'),
  prefix: z.string().optional().describe('list: only paths starting with this, e.g. reports/'),
  content: z.string().optional().describe('write: the full new text of the file'),
})
type WorkspaceInput = z.infer<typeof WorkspaceInput>

async function runAction(ctx: ToolContext, input: WorkspaceInput) {
  const scope = input.scope ?? 'personal'
  switch (input.action) {
    case 'list': {
      const tree = await listResources(ctx.caller, input.prefix)
      const files = (['personal', 'shared'] as const).flatMap((s) =>
        tree[s].map((e) => ({ scope: s, path: e.path, kind: e.kind, size: e.size, updatedAt: e.updatedAt })),
      )
      return { ok: true as const, action: 'list' as const, summary: `${files.length} files`, files }
    }
    case 'read': {
      const file = await readResource(ctx.caller, scope, input.path)
      const truncated = file.content.length > MAX_READ_CHARS
      return {
        ok: true as const,
        action: 'read' as const,
        summary: `Read ${scope}/${file.path}`,
        file: {
          scope,
          path: file.path,
          version: file.version,
          content: truncated ? file.content.slice(0, MAX_READ_CHARS) : file.content,
          truncated,
        },
      }
    }
    case 'write': {
      if (typeof input.path === 'string' && input.path.startsWith('jobs/')) {
        throw badRequest(
          'path: job files are changed with the manage-jobs tool, not by writing the file',
          'path',
        )
      }
      if (typeof input.content !== 'string')
        throw badRequest('content: the text to write is required', 'content')
      const { resource, created } = await writeResource(ctx.caller, scope, input.path, input.content)
      return {
        ok: true as const,
        action: 'write' as const,
        summary: `${created ? 'Created' : 'Updated'} ${scope}/${resource.path}`,
        file: {
          scope,
          path: resource.path,
          version: resource.version,
          size: Buffer.byteLength(input.content),
        },
      }
    }
  }
}

/** What the model and the system prompt read about the tool. */
export const WORKSPACE_DESCRIPTION =
  "List, read and write files in the person's workspace (notes, reports, data) and the organisation's " +
  'shared folder. Use it to keep results of job runs. Job files under jobs/ are read-only here.'

export function createWorkspaceTool(ctx: ToolContext) {
  return tool({
    description: WORKSPACE_DESCRIPTION,
    inputSchema: WorkspaceInput,
    execute: async (input) => {
      try {
        return await runAction(ctx, input)
      } catch (err) {
        return { ...toToolFailure(err, 'workspace'), action: input.action }
      }
    },
  })
}
