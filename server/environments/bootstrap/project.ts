/**
 * Projection: what the definition puts into the working tree on every use, beside the source.
 * The body becomes `AGENTS.md` with `CLAUDE.md` and `GEMINI.md` as symbolic links to it (copies
 * where links cannot be made); file skills and approved self-made skills are written; MCP skills
 * become `.mcp.json` with their secrets' values resolved now, so a changed secret is picked up on
 * the next use (the file is never part of a snapshot). Git skills are cloned by the bootstrap.
 */
import { lchown, lstat, readlink, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { Skill } from '../definition/definition-parts.ts'
import { writeFile, type FileContext } from '../files/files.ts'
import { readInside, removeEntry } from '../exec/inside.ts'

export const INSTRUCTIONS_FILE = 'AGENTS.md'
export const INSTRUCTION_LINKS = ['CLAUDE.md', 'GEMINI.md']
export const MCP_FILE = '.mcp.json'
export const SKILLS_DIR = '.skills'

/** Files that hold secret values: rewritten on every projection, never in a snapshot. */
export const SECRET_BEARING = [MCP_FILE]

export type Projection = {
  instructions: string
  skills: Skill[]
  secrets: Record<string, string>
  /** The content of an approved self-made skill by name. @throws HttpError when not approved. */
  approvedSkill: (name: string) => Promise<string>
}

/** Writes a file only when its content differs (projection runs on every use). */
async function writeIfChanged(files: FileContext, path: string, content: string) {
  const current = await readInside(files.root, path, 1024 * 1024)
  if (current !== content) await writeFile({ ...files, quotaBytes: undefined }, { path, content })
}

export async function project(files: FileContext, p: Projection): Promise<void> {
  if (p.instructions) await projectInstructions(files, p.instructions)
  for (const skill of p.skills) {
    if (typeof skill === 'string') {
      await writeIfChanged(files, `${SKILLS_DIR}/${skill}/SKILL.md`, await p.approvedSkill(skill))
    } else if (skill.kind === 'file') {
      await writeIfChanged(files, skill.path, skill.content)
    }
  }
  const mcp = p.skills.filter((s) => typeof s !== 'string' && s.kind === 'mcp')
  if (mcp.length > 0) {
    const servers = Object.fromEntries(
      mcp.map((skill) => [
        skill.name,
        {
          type: 'http',
          url: skill.config.url,
          headers: Object.fromEntries(
            Object.entries(skill.config.headers).map(([header, value]) => [
              header,
              typeof value === 'string'
                ? value
                : 'bearer' in value
                  ? `Bearer ${p.secrets[value.bearer] ?? ''}`
                  : (p.secrets[value.secret] ?? ''),
            ]),
          ),
        },
      ]),
    )
    await writeIfChanged(files, MCP_FILE, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`)
  }
}

async function projectInstructions(files: FileContext, body: string) {
  await writeIfChanged(files, INSTRUCTIONS_FILE, `${body}\n`)
  for (const name of INSTRUCTION_LINKS) {
    const path = join(files.root, name)
    const info = await lstat(path).catch(() => undefined)
    if (info?.isSymbolicLink()) {
      if ((await readlink(path)) === INSTRUCTIONS_FILE) continue
    }
    // Whatever a command left there goes without the server walking it (inside.ts).
    if (info) await removeEntry(files.root, name)
    try {
      await symlink(INSTRUCTIONS_FILE, path)
      if (files.owner) await lchown(path, files.owner.uid, files.owner.gid)
    } catch {
      await writeIfChanged(files, name, `${body}\n`) // a file system without links: a copy
    }
  }
}
