/** File calls, every path confined to the client's directory (see confine.ts). */
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { entryType, type FileEntry, type MachineCalls, type SearchMatch } from '../protocol.ts'
import { confine } from './confine.ts'
import { ClientError } from './errors.ts'

const MAX_READ_BYTES = 2_000_000
const MAX_MATCHES = 200
const SKIP_DIRS = new Set(['.git', 'node_modules'])

type P<M extends keyof MachineCalls> = MachineCalls[M]['params']
type R<M extends keyof MachineCalls> = MachineCalls[M]['result']

function readText(file: string, shown: string): string {
  let size: number
  try {
    size = statSync(file).size
  } catch {
    throw new ClientError('not_found', `${shown}: no such file`)
  }
  if (size > MAX_READ_BYTES)
    throw new ClientError('bad_request', `${shown}: larger than ${MAX_READ_BYTES} bytes`)
  return readFileSync(file, 'utf8')
}

export function fileCalls(root: string) {
  return {
    read_file: ({ path: p }: P<'read_file'>): R<'read_file'> => ({ content: readText(confine(root, p), p) }),

    write_file: ({ path: p, content }: P<'write_file'>): R<'write_file'> => {
      const file = confine(root, p)
      mkdirSync(path.dirname(file), { recursive: true })
      confine(root, p) // the parent chain may have been made just now: check again before writing
      writeFileSync(file, content)
      return { bytes: Buffer.byteLength(content) }
    },

    edit_file: ({ path: p, oldText, newText }: P<'edit_file'>): R<'edit_file'> => {
      const file = confine(root, p)
      const text = readText(file, p)
      const count = oldText === '' ? 0 : text.split(oldText).length - 1
      if (count !== 1) {
        throw new ClientError(
          'bad_request',
          `${p}: the text to replace occurs ${count} times; it must occur exactly once`,
        )
      }
      writeFileSync(
        file,
        text.replace(oldText, () => newText),
      )
      return { replacements: 1 }
    },

    list_directory: ({ path: p, times }: P<'list_directory'>): R<'list_directory'> => {
      const dir = confine(root, p)
      let names: string[]
      try {
        names = readdirSync(dir).sort()
      } catch {
        throw new ClientError('not_found', `${p || '.'}: no such directory`)
      }
      const entries: FileEntry[] = names.map((name) => {
        const s = lstatSync(path.join(dir, name))
        const type = entryType(s)
        return times ? { name, type, size: s.size, mtimeMs: s.mtimeMs } : { name, type, size: s.size }
      })
      return { entries }
    },

    search_files: ({ query, path: p = '.' }: P<'search_files'>): R<'search_files'> => {
      if (!query) throw new ClientError('bad_request', 'query: is required')
      const start = confine(root, p)
      const matches: SearchMatch[] = []
      const walk = (dir: string) => {
        for (const name of readdirSync(dir).sort()) {
          if (matches.length >= MAX_MATCHES) return
          const full = path.join(dir, name)
          const s = lstatSync(full) // links are not followed: they could point outside
          if (s.isDirectory() && !SKIP_DIRS.has(name)) walk(full)
          else if (s.isFile() && s.size <= MAX_READ_BYTES) {
            readFileSync(full, 'utf8')
              .split('\n')
              .forEach((text, i) => {
                if (matches.length < MAX_MATCHES && text.includes(query)) {
                  matches.push({ path: path.relative(root, full), line: i + 1, text: text.slice(0, 300) })
                }
              })
          }
        }
      }
      walk(start)
      return { matches }
    },
  }
}
