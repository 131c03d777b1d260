/**
 * The one way a tenant's Markdown file (a job file, an environment definition, a self-made skill)
 * has its frontmatter read. gray-matter must always be given options: without them it evaluates a
 * `---js` block with `eval` in the server's process and caches every text it was shown, forever.
 */
import matter from 'gray-matter'
import { badRequest } from './errors.ts'

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
 * @throws HttpError 400 `frontmatter` naming the line of the first YAML anchor (`&name`), which
 *   aliases (`*name`) need; js-yaml's error (with `mark` and `reason`) on other bad YAML, an Error on
 *   a `---js` block.
 */
export function parseFrontmatter(text: string): matter.GrayMatterFile<string> {
  return matter(text, { ...OPTIONS, listener: refuseAnchors() })
}

/**
 * A js-yaml listener (its `listener` option, called as each node opens and closes) that throws at
 * the first anchored node, before any alias can name it. js-yaml hands every alias the anchored
 * node itself, so seven nested anchors of ten aliases each are 10^7 values in 400 bytes, and
 * whatever walks them afterwards (checking text, copying, storing) holds the event loop for
 * seconds, each further level ten times longer (decision 0524). An alias to a node still open
 * (`&a [*a]`) is a cycle, refused as that node closes. Written out, a value costs its own bytes.
 */
function refuseAnchors() {
  const openedOnLine: number[] = []
  return (event: 'open' | 'close', state: { line: number; anchor: string | null }) => {
    if (event === 'open') {
      openedOnLine.push(state.line)
      return
    }
    const line = openedOnLine.pop() ?? state.line
    if (state.anchor === null) return
    // js-yaml counts lines from 0 within the block, which starts on the opener's line.
    throw badRequest(
      `Line ${line + 1}: YAML anchors and aliases (&${state.anchor}) are not allowed in frontmatter; write the value out in full`,
      'frontmatter',
    )
  }
}
