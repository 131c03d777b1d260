/**
 * Attacker's review of how the API reads numbers from the query: they were read with
 * `z.coerce.number()`, so `limit=1e1`, `0x10`, `+5`, `%201` (a leading space), `1.0` and an empty `limit=` (read as 0,
 * or as absent) were taken as numbers, though the API says anything but a whole number in range is
 * a 400. What a proxy's rule or a log reads as text is not what the server acted on. Each form is
 * now a 400 naming its key, on every route that reads an integer from the query.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { withTeamApp } from '#tests/support/team-app.ts'

const suite = withTeamApp()
const API = '/_agent-native'

// As sent on the wire: `%2B5` is a literal plus (a bare `+` in a query is a space), `%201` a
// leading space, `1%20` a trailing one.
const NOT_PLAIN_DIGITS = ['1e1', '0x10', '%2B5', '+5', '%201', '1%20', '1.0', '', '%EF%BC%91']

let jobId = ''
beforeAll(async () => {
  const made = await suite.team.owner.client.post(`${API}/jobs`, {
    name: 'numbers',
    schedule: '0 7 * * *',
    instructions: 'Go.',
  })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  jobId = made.body.job.id
})

/** Each route's query with one integer key; `$` is where the value goes. */
const ROUTES: [string, string][] = [
  ['/jobs?limit=$', 'limit'],
  ['/jobs/:job/audit?limit=$', 'limit'],
  ['/jobs/:job/runs?limit=$', 'limit'],
  ['/resources?limit=$', 'limit'],
  ['/skills/skill_none?limit=$', 'limit'],
  ['/usage?days=$', 'days'],
  ['/environments/env_none/audit?before=$', 'before'],
  ['/environments/env_none/audit?limit=$', 'limit'],
  ['/environments/env_none/changes?limit=$', 'limit'],
  ['/environments/env_none/file?path=a.txt&offset=$', 'offset'],
  ['/environments/env_none/file?path=a.txt&limit=$', 'limit'],
]
const url = (route: string, value: string) => `${API}${route.replace(':job', jobId).replace('$', value)}`

describe('an integer in the query', () => {
  it.each(ROUTES)('%s is a 400 naming %s for every form that is not plain digits', async (route, key) => {
    for (const value of NOT_PLAIN_DIGITS) {
      const res = await suite.team.owner.client.get(url(route, value))
      expect(res.status, `${key}=${value}: ${JSON.stringify(res.body)}`).toBe(400)
      expect(res.body.error, `${key}=${value}`).toMatchObject({ code: 'bad_request', field: key })
      expect(res.body.error.message).toMatch(new RegExp(`^${key}: must be`))
    }
  })

  it.each(['/jobs?limit=$', '/jobs/:job/audit?limit=$', '/jobs/:job/runs?limit=$', '/resources?limit=$'])(
    '%s still takes plain digits, leading zeros included, and refuses them out of range',
    async (route) => {
      expect((await suite.team.owner.client.get(url(route, '5'))).status).toBe(200)
      expect((await suite.team.owner.client.get(url(route, '007'))).status).toBe(200)
      const over = await suite.team.owner.client.get(url(route, '201'))
      expect(over.body.error).toMatchObject({ field: 'limit', message: 'limit: must be at most 200' })
    },
  )

  it('usage takes days=7 and refuses 91', async () => {
    expect((await suite.team.owner.client.get(url('/usage?days=$', '7'))).status).toBe(200)
    const over = await suite.team.owner.client.get(url('/usage?days=$', '91'))
    expect(over.body.error).toMatchObject({ field: 'days', message: 'days: must be at most 90' })
  })
})
