/**
 * Attack: a page form whose `id` (or `userId`) holds a NUL. The API refuses a NUL in a URL
 * (decision 0471) and in a JSON body (parseInput), but page actions handed a form's fields straight
 * to the service, whose lookup failed in PostgreSQL ("invalid byte sequence for encoding UTF8:
 * 0x00"): an "Unexpected Server Error" 500. Any member can post these forms (the admins' ones failed
 * before the role check). Safe outcome: every form is checked as it is read (server/pages/forms.ts
 * runForm), so each answers the usual 400 result naming the field, and nothing is written.
 */
import { describe, expect, it } from 'vitest'
import { snapshotTables } from '#tests/support/snapshot.ts'
import { withTeamApp } from '#tests/support/team-app.ts'

const suite = withTeamApp()
const NUL_ID = 'abc\u0000def'

const post = (who: 'owner' | 'member', path: string, fields: Record<string, string>) =>
  suite.team[who].client.request('POST', path, new URLSearchParams(fields).toString(), {
    'content-type': 'application/x-www-form-urlencoded',
  })

describe('a page form whose id holds a NUL', () => {
  it.each([
    ['member', '/jobs.data', { intent: 'duplicate', id: NUL_ID }, 'id'],
    ['member', '/jobs.data', { intent: 'toggle', id: NUL_ID, enabled: 'true' }, 'id'],
    ['owner', '/skills.data', { intent: 'approve', id: NUL_ID }, 'id'],
    ['owner', '/skills.data', { intent: 'delete', id: NUL_ID }, 'id'],
    ['owner', '/settings/delivery.data', { intent: 'delete-endpoint', id: NUL_ID }, 'id'],
    ['member', '/calendar.data', { intent: 'revoke-token', id: NUL_ID }, 'id'],
    ['member', '/settings/access-tokens.data', { intent: 'revoke', id: NUL_ID }, 'id'],
    ['member', '/settings/machines.data', { intent: 'revoke-token', id: NUL_ID }, 'id'],
    ['member', '/settings/machines.data', { intent: 'disconnect', id: NUL_ID }, 'id'],
    ['member', '/settings/integrations.data', { intent: 'remove', id: NUL_ID }, 'id'],
    ['owner', '/settings/members.data', { intent: 'reset-link', userId: NUL_ID }, 'userId'],
  ] as const)('%s POST %s %o answers a 400 naming %s, nothing written', async (who, path, fields, field) => {
    const before = await snapshotTables()
    const res = await post(who, path, fields)
    const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body)
    expect(res.status, text.slice(0, 300)).toBeLessThan(500)
    expect(text).not.toContain('Unexpected Server Error')
    // The action's usual `{ ok: false, error: { message, field, status: 400 } }` result.
    expect(text).toContain(`"${field}: must not contain the NUL character (U+0000)"`)
    expect(text).toContain(`"${field}"`)
    expect(await snapshotTables()).toEqual(before)
  })
})
