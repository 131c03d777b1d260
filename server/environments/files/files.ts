/**
 * The file tools of an environment: write, read and edit, every path confined by paths.ts.
 * Listing lives in files-list.ts; search runs in the command view (exec/search-files.ts).
 */
import { badRequest } from '../../lib/errors.ts'
import {
  type EditFileInput,
  type FileContext,
  MAX_READ_LINES,
  MAX_WRITE_BYTES,
  type ReadFileInput,
  type WriteFileInput,
} from './files-schema.ts'
import { readAtMost } from './bounded-read.ts'
import { openForRead, openForWrite, type RaceHooks } from './paths.ts'
import { adjustUsage, assertWithinQuota } from './quota.ts'

export * from './files-schema.ts'

/** Largest file read_file (and edit_file) will load. */
export const MAX_READ_BYTES = 10 * 1024 * 1024
/** Most characters of content read_file returns; more is cut with a visible marker. */
const MAX_READ_CHARS = 200_000

export type WriteFileResult = { path: string; bytes: number }
export type ReadFileResult = {
  path: string
  content: string
  startLine: number
  endLine: number
  totalLines: number
  /** Set when more lines follow: pass it as `offset` to continue. */
  nextOffset?: number
  binary?: true
}

/** Writes a whole file, creating folders. */
export async function writeFile(
  ctx: FileContext,
  input: WriteFileInput,
  hooks?: RaceHooks,
): Promise<WriteFileResult> {
  const data = Buffer.from(input.content, 'utf8')
  if (data.length > MAX_WRITE_BYTES)
    throw badRequest(`content: must be at most ${MAX_WRITE_BYTES} bytes`, 'content')
  await assertWithinQuota(ctx.root, ctx.quotaBytes, data.length, ctx.quotaNote)
  const opened = await openForWrite(ctx.root, input.path, { owner: ctx.owner, hooks })
  try {
    const before = (await opened.handle.stat()).size
    await opened.handle.truncate(0)
    await opened.handle.write(data, 0, data.length, 0)
    adjustUsage(ctx.root, data.length - before)
  } finally {
    await opened.handle.close()
  }
  return { path: opened.rel, bytes: data.length }
}

/** Reads a text file, by lines. */
export async function readFile(
  ctx: FileContext,
  input: ReadFileInput,
  hooks?: RaceHooks,
): Promise<ReadFileResult> {
  const { rel, data } = await loadFile(ctx, input.path, hooks)
  if (data.subarray(0, 8192).includes(0)) {
    return {
      path: rel,
      content: `(binary file, ${data.length} bytes)`,
      startLine: 0,
      endLine: 0,
      totalLines: 0,
      binary: true,
    }
  }
  return sliceLines(rel, data.toString('utf8'), input, ctx.redact)
}

/** The lines `input` asks for of a text file's content (shared by every provider's read_file). */
export function sliceLines(
  rel: string,
  text: string,
  input: Pick<ReadFileInput, 'offset' | 'limit'>,
  redact?: (text: string) => string,
): ReadFileResult {
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  const start = input.offset ?? 1
  const limit = input.limit ?? MAX_READ_LINES
  if (start > Math.max(lines.length, 1)) {
    throw badRequest(`offset: ${start} is past the end of ${rel} (${lines.length} lines)`, 'offset')
  }
  const slice = lines.slice(start - 1, start - 1 + limit)
  let content = slice.join('\n')
  if (content.length > MAX_READ_CHARS) {
    content = `${content.slice(0, MAX_READ_CHARS)}\n[… cut at ${MAX_READ_CHARS} characters: read fewer lines …]`
  }
  const endLine = start - 1 + slice.length
  return {
    path: rel,
    content: redact ? redact(content) : content,
    startLine: start,
    endLine,
    totalLines: lines.length,
    ...(endLine < lines.length ? { nextOffset: endLine + 1 } : {}),
  }
}

/** Replaces the one exact occurrence of `old` with `new`. */
export async function editFile(
  ctx: FileContext,
  input: EditFileInput,
): Promise<WriteFileResult & { line: number }> {
  const { rel, data } = await loadFile(ctx, input.path)
  const text = data.toString('utf8')
  const first = text.indexOf(input.old)
  if (first < 0) {
    throw badRequest(`old: the text was not found in ${rel}; read the file and copy the exact text`, 'old')
  }
  const count = countOccurrences(text, input.old)
  if (count > 1) {
    throw badRequest(`old: the text occurs ${count} times in ${rel}; include more surrounding lines`, 'old')
  }
  const next = text.slice(0, first) + input.new + text.slice(first + input.old.length)
  const written = await writeFile(ctx, { path: rel, content: next })
  return { ...written, line: text.slice(0, first).split('\n').length }
}

function countOccurrences(text: string, needle: string): number {
  let count = 0
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) count++
  return count
}

async function loadFile(ctx: FileContext, path: string, hooks?: RaceHooks) {
  const opened = await openForRead(ctx.root, path, { hooks })
  try {
    const stat = await opened.handle.stat()
    if (stat.isDirectory()) throw badRequest(`path: "${opened.rel}" is a folder; use list_directory`, 'path')
    if (!stat.isFile()) throw badRequest(`path: "${opened.rel}" is not a regular file`, 'path')
    const tooLarge = (size: string) =>
      badRequest(
        `path: "${opened.rel}" is ${size} bytes; the most read_file loads is ${MAX_READ_BYTES}`,
        'path',
      )
    if (stat.size > MAX_READ_BYTES) throw tooLarge(String(stat.size))
    await hooks?.afterSize?.()
    // The size above was the file's at open: a command may be appending to it still.
    const data = await readAtMost(opened.handle, MAX_READ_BYTES)
    if (!data) throw tooLarge(`more than ${MAX_READ_BYTES}`)
    return { rel: opened.rel, data }
  } finally {
    await opened.handle.close()
  }
}
