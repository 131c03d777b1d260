/**
 * Inputs of the file tools. One schema per tool, used by the agent tools, the HTTP API and the
 * environment page alike; the `.describe()` texts are what the model reads as the tool's docs.
 */
import { z } from 'zod'

/** Largest file write_file and edit_file will write, in UTF-8 bytes. */
export const MAX_WRITE_BYTES = 2 * 1024 * 1024
/** Most lines read_file returns at once. */
export const MAX_READ_LINES = 2000

const path = z
  .string()
  .min(1, 'path is required')
  .max(1024)
  .describe('Path relative to the environment root, e.g. "src/index.js" (no leading /, no ..)')

export const WriteFileInput = z
  .object({
    path,
    content: z
      .string()
      .refine(
        (s) => Buffer.byteLength(s) <= MAX_WRITE_BYTES,
        `content must be at most ${MAX_WRITE_BYTES} bytes`,
      )
      .describe('The whole new content of the file (UTF-8). Missing folders are created.'),
  })
  .strict()

export const ReadFileInput = z
  .object({
    path,
    offset: z.number().int().min(1).optional().describe('First line to return, counting from 1 (default 1)'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_READ_LINES)
      .optional()
      .describe(`How many lines to return (default and maximum ${MAX_READ_LINES})`),
  })
  .strict()

export const EditFileInput = z
  .object({
    path,
    old: z
      .string()
      .min(1, 'old must not be empty')
      .describe('Exact text to replace; must occur exactly once'),
    new: z.string().describe('Replacement text'),
  })
  .strict()

export const ListDirectoryInput = z
  .object({
    path: z
      .string()
      .max(1024)
      .optional()
      .describe('Folder relative to the environment root (default: the root)'),
    recursive: z.boolean().optional().describe('Also list everything below (default false)'),
  })
  .strict()

export const SearchFilesInput = z
  .object({
    pattern: z.string().min(1).max(1000).describe('Regular expression to search file contents for'),
    path: z.string().max(1024).optional().describe('Folder or file to search in (default: the root)'),
    glob: z.string().max(200).optional().describe('Only files whose path matches this glob, e.g. "*.ts"'),
  })
  .strict()

export type WriteFileInput = z.infer<typeof WriteFileInput>
export type ReadFileInput = z.infer<typeof ReadFileInput>
export type EditFileInput = z.infer<typeof EditFileInput>
export type ListDirectoryInput = z.infer<typeof ListDirectoryInput>
export type SearchFilesInput = z.infer<typeof SearchFilesInput>

/** Where the file tools act: the environment's root, who owns new files, and its disk quota. */
export type FileContext = {
  root: string
  /** Owner of created files and folders (the sandbox uid), when the server runs as root. */
  owner?: { uid: number; gid: number }
  quotaBytes?: number
  /** Said after a write refused over the quota: why the quota is what it is (org-disk.ts). */
  quotaNote?: string
  /** Hides injected secrets in what is read back (see redact.ts). */
  redact?: (text: string) => string
}
