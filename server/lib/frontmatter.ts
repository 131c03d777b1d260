/**
 * The one way a tenant's Markdown file (a job file, an environment definition, a self-made skill)
 * has its frontmatter read. gray-matter must always be given options: without them it evaluates a
 * `---js` block with `eval` in the server's process and caches every text it was shown, forever.
 */
import matter from 'gray-matter'

const OPTIONS = {
  language: 'yaml',
  engines: {
    javascript: () => {
      throw new Error('JavaScript frontmatter is not allowed')
    },
  },
}

/**
 * `text`'s frontmatter (YAML unless its opener names JSON) and body.
 *
 * @throws js-yaml's error (with `mark` and `reason`) on bad YAML, an Error on a `---js` block.
 */
export function parseFrontmatter(text: string): matter.GrayMatterFile<string> {
  return matter(text, OPTIONS)
}
