/**
 * What axe-core finds on a page as it stands (decision 0412): WCAG 2.0/2.1 A and AA rules, one
 * line per rule and element, with `where` in front. The axe walk (accessibility.spec.ts) uses it on
 * every page it can reach alone; specs that reach a page only through a flow of their own (an
 * invitation, a reset link) use it there.
 */
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

export async function axeFindings(page: Page, where: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  return violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${where}: ${v.id} (${v.help}) at ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join('; ')}`,
    ),
  )
}
