/**
 * Listing an environment's files, and the bounds of searching them (the search itself runs in the
 * command view: exec/search-files.ts). Folders are read through their opened descriptor (paths.ts
 * `handlePath`) and entered with O_NOFOLLOW one level at a time, so nothing here follows a symlink
 * out of the root: links are listed as links, never descended.
 */
import { constants } from 'node:fs'
import { lstat, open, opendir } from 'node:fs/promises'
import { type FileContext, type ListDirectoryInput } from './files-schema.ts'
import { MAX_READ_BYTES } from './files.ts'
import { handlePath, openForRead } from './paths.ts'

/** Most entries list_directory returns. */
export const MAX_ENTRIES = 1000
/**
 * Most characters of paths one listing returns, all entries together. Each entry names its whole
 * path, so a chain of nested folders with 250-character names costs the square of its depth: 1,000
 * such entries were 125 MB of JSON, built and sent in one response. Ordinary trees stay far below.
 */
export const MAX_LISTING_CHARS = 1024 * 1024
/**
 * Deepest folder a recursive listing enters (as deep as the watcher looks): each level holds a
 * descriptor open while the levels below are read.
 */
export const MAX_LIST_DEPTH = 64
/** Most matching lines search_files returns. */
export const MAX_MATCHES = 200
/**
 * Most characters search_files returns. A line is cut at 400 columns, but its file's path is not:
 * 200 matches in a file 250 folders deep would be 12 MB.
 */
export const MAX_SEARCH_CHARS = 256 * 1024
/**
 * Largest file search_files reads, as read_file. ripgrep holds a whole line in memory to search it,
 * so one file of a single line (a command makes 1 GiB of one in a second, within the per-file
 * limit) cost about twice its size in the server's memory for each search, and searches need only
 * the right to see the environment. Larger files are skipped in a folder and refused by name.
 */
export const MAX_SEARCH_FILE_BYTES = MAX_READ_BYTES

export type Entry = { path: string; type: 'file' | 'folder' | 'symlink' | 'other'; size: number }

export async function listDirectory(ctx: FileContext, input: ListDirectoryInput) {
  const opened = await openForRead(ctx.root, input.path ?? '', { directory: true })
  const listing: Listing = { entries: [], chars: 0, cut: false }
  try {
    await walk(handlePath(opened), opened.rel, Boolean(input.recursive), listing, 1)
  } finally {
    await opened.handle.close()
  }
  const { entries } = listing
  entries.sort((a, b) => a.path.localeCompare(b.path))
  const truncated = listing.cut || entries.length > MAX_ENTRIES
  return {
    path: opened.rel || '.',
    entries: entries.slice(0, MAX_ENTRIES),
    ...(truncated ? { truncated } : {}),
  }
}

/** What a listing has gathered: its entries, the characters of their paths, whether it stopped early. */
type Listing = { entries: Entry[]; chars: number; cut: boolean }

async function walk(dirPath: string, rel: string, recursive: boolean, listing: Listing, depth: number) {
  const out = listing.entries
  // Entry by entry, not readdir's whole array: a command can make a folder of millions of names,
  // and only the first MAX_ENTRIES + 1 (one more says "truncated") are ever needed.
  for await (const dirent of await opendir(dirPath)) {
    if (out.length > MAX_ENTRIES || listing.cut) return // leaving the loop closes the folder
    const path = rel ? `${rel}/${dirent.name}` : dirent.name
    listing.chars += path.length
    if (listing.chars > MAX_LISTING_CHARS) {
      listing.cut = true
      return
    }
    const stat = await lstat(`${dirPath}/${dirent.name}`).catch(() => null)
    if (!stat) continue
    const type = stat.isSymbolicLink()
      ? 'symlink'
      : stat.isDirectory()
        ? 'folder'
        : stat.isFile()
          ? 'file'
          : 'other'
    out.push({ path, type, size: type === 'file' ? stat.size : 0 })
    if (recursive && type === 'folder') {
      if (depth >= MAX_LIST_DEPTH) {
        listing.cut = true // listed, but what is in it is not
        continue
      }
      const child = await openFolder(`${dirPath}/${dirent.name}`)
      if (!child) continue
      try {
        await walk(`/proc/self/fd/${child.fd}`, path, true, listing, depth + 1)
      } finally {
        await child.close()
      }
    }
  }
}

/** Opens a sub-folder without following a link (it may have been swapped since it was listed). */
const openFolder = (path: string) =>
  open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW).catch(() => null)

export type SearchResult = {
  output: string
  matches: number
  truncated: boolean
  engine: 'ripgrep' | 'machine'
}
