/**
 * web_fetch refuses private, loopback and link-local targets, by literal address and by a name
 * that resolves to one (the system's `localhost`, and a custom resolver: no network), and is left
 * out when the organisation switches it off. HTML becomes Markdown.
 */
import type { ToolExecutionOptions } from 'ai'
import { describe, expect, it } from 'vitest'
import { DEFAULT_ORG_SETTINGS } from '../../accounts/org-settings-schema.ts'
import type { Caller } from '../../auth/caller.ts'
import { htmlToMarkdown, PageUnreadable } from '../../integrations/html-to-markdown.ts'
import { fetchReadable, toReadable } from '../../integrations/web-fetch.ts'
import { OutboundRefused } from '../../lib/outbound.ts'
import type { ToolContext } from '../tool-context.ts'
import { enabledToolNames } from './index.ts'
import { createWebFetchTool } from './web-fetch.ts'

const ctx = { caller: { userId: 'u', orgId: 'o' } as Caller, mode: 'chat' } as ToolContext
const run = (url: string) =>
  createWebFetchTool(ctx).execute!({ url }, { toolCallId: 't', messages: [] } as ToolExecutionOptions)

describe('web_fetch', () => {
  it.each([
    'http://127.0.0.1/',
    'http://127.0.0.1:3000/_agent-native/jobs',
    'http://10.0.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://localhost/',
  ])('refuses %s', async (url) => {
    const out = await run(url)
    expect(out).toMatchObject({ ok: false, error: { status: 403, code: 'refused' } })
    expect((out as { error: { message: string } }).error.message).toMatch(/not public|private/)
  })

  it('refuses other schemes and non-URLs', async () => {
    expect(await run('file:///etc/passwd')).toMatchObject({ ok: false, error: { status: 403 } })
    expect(await run('not a url')).toMatchObject({ ok: false, error: { status: 400 } })
  })

  it('refuses a name that resolves to loopback or a private address, before connecting', async () => {
    const lookup = (host: string, cb: (e: Error | null, a: { address: string; family: number }[]) => void) =>
      cb(
        null,
        host === 'rebind.test'
          ? [
              { address: '93.184.215.14', family: 4 },
              { address: '127.0.0.1', family: 4 },
            ]
          : [{ address: '10.1.2.3', family: 4 }],
      )
    await expect(fetchReadable('http://rebind.test/', { lookup })).rejects.toThrow(OutboundRefused)
    // Refused without saying where the name leads: a member could otherwise map the inside's names.
    const refused = await fetchReadable('http://intranet.test/', { lookup }).catch((err: Error) => err)
    expect(String(refused)).toMatch(/intranet\.test resolves to an address that is not public/)
    expect(String(refused)).not.toContain('10.1.2.3')
  })

  it('turns HTML into Markdown, main part first, without scripts', async () => {
    const html =
      '<html><head><title>Release notes</title><script>alert(1)</script></head><body><nav>Menu</nav>' +
      '<main><h1>Version 2</h1><p>Deploys on <strong>Tuesdays</strong>.</p><ul><li>one</li></ul></main></body></html>'
    const page = await toReadable({
      url: 'https://example.com/notes',
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: Buffer.from(html),
    })
    expect(page.title).toBe('Release notes')
    expect(page.content).toBe('# Version 2\n\nDeploys on **Tuesdays**.\n\n-   one')
    expect(page.content).not.toContain('alert')
    expect(page.content).not.toContain('Menu')
  })

  it('cuts long text and says so', async () => {
    const page = await toReadable(
      {
        url: 'https://example.com/a.txt',
        status: 200,
        headers: { 'content-type': 'text/plain' },
        body: Buffer.from('x'.repeat(900)),
      },
      500,
    )
    expect(page).toMatchObject({ truncated: true, contentType: 'text/plain' })
    expect(page.content).toHaveLength(500)
  })

  it.each([
    // Each start of <main> scanned to the end for a closing tag: quadratic (240 KB: ~6 s).
    ['unclosed <main> tags', '<main>'.repeat(40_000)],
    // <title> likewise.
    ['unclosed <title> tags', '<title>'.repeat(40_000)],
    // turndown walks a deep tree recursively (100 KB: ~4 s, then a stack overflow; 1 MB: minutes).
    ['deeply nested elements', '<div>'.repeat(20_000)],
  ])(
    'reads a hostile page (%s) off the event loop',
    async (_, html) => {
      let settled = false
      const reading = toReadable({
        url: 'https://hostile.example/',
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: Buffer.from(html),
      })
        .then(
          (page) => page.content.length,
          (err: Error) => err.message,
        )
        .finally(() => (settled = true))
      // Converted on the main thread, the page would be read (for seconds, or minutes) before
      // toReadable returned; in a worker, the loop goes on turning while it is read.
      await new Promise((turn) => setImmediate(turn))
      expect(settled).toBe(false)
      const out = await reading
      if (typeof out === 'string') expect(out).toMatch(/could not be read|too complex/)
    },
    30_000,
  )

  it('gives up on a page whose conversion outlasts its limit', async () => {
    await expect(htmlToMarkdown('<div>'.repeat(20_000), 1)).rejects.toThrow(
      new PageUnreadable('the page is too complex to read (over 0.001 s)'),
    )
  })

  it('is left out of the tool set when the organisation switches it off', () => {
    const clis = { clis: [] }
    expect(enabledToolNames({ ...ctx, execution: { settings: DEFAULT_ORG_SETTINGS, ...clis } })).toContain(
      'web_fetch',
    )
    expect(
      enabledToolNames({
        ...ctx,
        execution: { settings: { ...DEFAULT_ORG_SETTINGS, webFetch: false }, ...clis },
      }),
    ).not.toContain('web_fetch')
  })
})
