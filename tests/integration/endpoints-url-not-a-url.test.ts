/**
 * Attack: an admin registers a webhook or Slack endpoint whose `url` is not a URL. EndpointInput's
 * refinement called `new URL(u)` even after z.url() had refused the text (zod runs refinements
 * anyway), the TypeError escaped validation, and the answer was a 500, through the API and the
 * Settings → Delivery form alike. Safe outcome: a 400 naming `url`, and nothing written.
 */
import { describe, expect, it } from 'vitest'
import { withTeamApp } from '#tests/support/team-app.ts'

const suite = withTeamApp()
const NOT_URLS = ['nope', 'http://[::1', 'https://']
const endpoints = async () => (await suite.team.admin.client.get('/_agent-native/webhooks')).body

describe('an endpoint whose url is not a URL', () => {
  it.each(NOT_URLS)('%j is a 400 naming url through the API', async (url) => {
    const before = await endpoints()
    const res = await suite.team.admin.client.post('/_agent-native/webhooks', {
      kind: 'webhook',
      name: 'feed',
      url,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.error).toMatchObject({ field: 'url', message: 'url: must be an http(s) URL' })
    expect(await endpoints()).toEqual(before)
  })

  it.each(['/settings/delivery', '/settings/delivery.data'])(
    'is the form’s 400 naming url on %s',
    async (path) => {
      const before = await endpoints()
      const form = new URLSearchParams({
        intent: 'create-endpoint',
        kind: 'slack',
        name: 'ops',
        url: 'not a url',
      })
      const res = await suite.team.admin.client.request('POST', path, form.toString(), {
        'content-type': 'application/x-www-form-urlencoded',
      })
      const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body)
      expect(res.status, text.slice(0, 300)).toBeLessThan(500)
      expect(text).toContain('url: must be an http(s) URL')
      expect(await endpoints()).toEqual(before)
    },
  )

  it('still refuses a URL that carries a user name or password', async () => {
    const res = await suite.team.admin.client.post('/_agent-native/webhooks', {
      kind: 'webhook',
      name: 'feed',
      url: 'https://user:secret@hooks.example.com/in',
    })
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.error).toMatchObject({
      field: 'url',
      message: 'url: must not carry a user name or password',
    })
  })
})
