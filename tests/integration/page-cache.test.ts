/**
 * The rendered-page cache of the production server (server/http/page-cache.ts): a repeat of the
 * jobs page is the same document (its CSP header names the nonce inside it), another
 * organisation's writes leave it cached, any committed write that changes it, even one made behind
 * the server's back as another instance would, is seen by the next request, and one person's page
 * is never served to another. Needs `npm run build` first.
 */
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { ApiClient } from '#tests/support/api-client.ts'
import { sharedPostgres, spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts'

let server: SpawnedServer
let alice: ApiClient
let bob: ApiClient

beforeAll(async () => {
  server = await spawnServer({ SCHEDULER_ENABLED: 'false' }, sharedPostgres(inject('postgresUrl')))
  alice = new ApiClient(server.baseUrl)
  bob = new ApiClient(server.baseUrl)
  await alice.signUp('Alice Cache', 'alice-page-cache@example.com')
  await bob.signUp('Bob Cache', 'bob-page-cache@example.com')
  for (const [client, name] of [
    [alice, 'alice-report'],
    [bob, 'bob-report'],
  ] as const) {
    const res = await client.post('/_agent-native/jobs', {
      name,
      schedule: '0 7 * * 1-5',
      instructions: 'Summarise yesterday’s sign-ups.',
      scope: 'personal',
    })
    expect(res.status).toBe(201)
  }
}, 120_000)
afterAll(() => server?.stop())

async function page(client: ApiClient, path: string) {
  const res = await fetch(server.baseUrl + path, {
    headers: { cookie: client.cookieHeader, 'accept-encoding': 'br' },
  })
  const html = await res.text()
  const csp = res.headers.get('content-security-policy') ?? ''
  return {
    status: res.status,
    html,
    bodyNonces: new Set([...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1])),
    headerNonce: /'nonce-([^']+)'/.exec(csp)?.[1],
  }
}

describe('page cache', () => {
  it('serves a repeat of the jobs page as the same document, its CSP naming the nonce inside', async () => {
    // Nothing in Alice's organisation changes between these requests, but an entry lives 5 s: look
    // for one repeat among a few requests.
    let previous = await page(alice, '/jobs')
    let repeated = false
    for (let i = 0; i < 20 && !repeated; i++) {
      const next = await page(alice, '/jobs')
      for (const p of [previous, next]) {
        expect(p.status).toBe(200)
        expect(p.html).toContain('alice-report')
        expect([...p.bodyNonces]).toEqual([p.headerNonce])
      }
      repeated = next.headerNonce === previous.headerNonce
      if (repeated) expect(next.html).toBe(previous.html)
      previous = next
    }
    expect(repeated).toBe(true)
  })

  it('serves organisation A’s page from the cache while organisation B writes, and misses after a write to A', async () => {
    // Alice and Bob each signed up into a workspace of their own: two organisations.
    const sql = postgres(server.databaseUrl, { max: 1 })
    try {
      let first = await page(alice, '/jobs')
      let second = await page(alice, '/jobs')
      // An entry lives 5 s: on a slow machine the pair may straddle its end, so retry once.
      if (second.headerNonce !== first.headerNonce) {
        first = second
        second = await page(alice, '/jobs')
      }
      expect(second.headerNonce).toBe(first.headerNonce)
      // Bob's organisation writes, through the API and behind the server's back.
      const created = await bob.post('/_agent-native/jobs', {
        name: 'bob-busy',
        schedule: '* * * * *',
        instructions: 'Keep busy.',
      })
      expect(created.status).toBe(201)
      await sql`update jobs set instructions = 'bob wrote' where name = 'bob-report'`
      const during = await page(alice, '/jobs')
      expect(during.headerNonce).toBe(first.headerNonce)
      expect(during.html).toBe(first.html)
      // A run of Alice's job renewing its lease (a heartbeat) changes nothing she sees.
      const [job] = await sql`select id, org_id from jobs where name = 'alice-report'`
      await sql`insert into job_runs (id, job_id, org_id, trigger, scheduled_for, status, lease_expires_at)
        values ('run_cache_lease', ${job!.id}, ${job!.org_id}, 'manual', now(), 'running', now())`
      const withRun = await page(alice, '/jobs')
      expect(withRun.headerNonce).not.toBe(first.headerNonce)
      await sql`update job_runs set lease_expires_at = now() + interval '1 minute' where id = 'run_cache_lease'`
      expect((await page(alice, '/jobs')).headerNonce).toBe(withRun.headerNonce)
      await sql`delete from job_runs where id = 'run_cache_lease'`
      const beforeWrite = await page(alice, '/jobs')
      expect(beforeWrite.html).not.toContain('30 6 * * 1-5')
      // A write to Alice's organisation that changes her list: the next request renders again.
      await sql`update jobs set schedule = '30 6 * * 1-5' where name = 'alice-report'`
      const after = await page(alice, '/jobs')
      expect(after.headerNonce).not.toBe(beforeWrite.headerNonce)
      expect(after.html).toContain('30 6 * * 1-5')
      await sql`delete from jobs where name = 'bob-busy'`
    } finally {
      await sql.end()
    }
  })

  it('shows a write committed behind the server’s back (another instance) on the next request', async () => {
    const before = await page(alice, '/jobs')
    expect(before.html).toContain('alice-report')
    const sql = postgres(server.databaseUrl, { max: 1 })
    try {
      await sql`update jobs set name = 'alice-renamed' where name = 'alice-report'`
    } finally {
      await sql.end()
    }
    const after = await page(alice, '/jobs')
    expect(after.html).toContain('alice-renamed')
    expect(after.html).not.toContain('alice-report')
    // A new render: a new nonce, still the one the header names.
    expect([...after.bodyNonces]).toEqual([after.headerNonce])
    expect(after.headerNonce).not.toBe(before.headerNonce)
  })

  it('answers the jobs API from the cache only until the next write, and per person', async () => {
    const list = async (client: ApiClient) => {
      const res = await fetch(`${server.baseUrl}/_agent-native/jobs`, {
        headers: { cookie: client.cookieHeader },
      })
      expect(res.status).toBe(200)
      return (await res.json()) as { jobs: { name: string }[] }
    }
    expect((await list(alice)).jobs.map((j) => j.name)).toContain('alice-renamed')
    expect((await list(bob)).jobs.map((j) => j.name)).toEqual(['bob-report'])
    const sql = postgres(server.databaseUrl, { max: 1 })
    try {
      await sql`update jobs set name = 'alice-api-renamed' where name = 'alice-renamed'`
    } finally {
      await sql.end()
    }
    const names = (await list(alice)).jobs.map((j) => j.name)
    expect(names).toContain('alice-api-renamed')
    expect(names).not.toContain('alice-renamed')
    // A conditional request still gets the route's 304.
    const first = await fetch(`${server.baseUrl}/_agent-native/jobs`, {
      headers: { cookie: alice.cookieHeader },
    })
    const etag = first.headers.get('etag')
    expect(etag).toBeTruthy()
    const again = await fetch(`${server.baseUrl}/_agent-native/jobs`, {
      headers: { cookie: alice.cookieHeader, 'if-none-match': etag! },
    })
    expect(again.status).toBe(304)
  })

  it('never serves one person’s page to another', async () => {
    await page(alice, '/jobs')
    const bobs = await page(bob, '/jobs')
    expect(bobs.html).toContain('bob-report')
    expect(bobs.html).not.toContain('alice-')
  })

  it('leaves other pages alone: each render has its own nonce', async () => {
    const first = await page(alice, '/settings/profile')
    const second = await page(alice, '/settings/profile')
    expect(first.status).toBe(200)
    expect(second.headerNonce).not.toBe(first.headerNonce)
    expect([...second.bodyNonces]).toEqual([second.headerNonce])
  })
})

describe('PAGE_CACHE=false', () => {
  let uncached: SpawnedServer
  let carol: ApiClient
  beforeAll(async () => {
    uncached = await spawnServer(
      { SCHEDULER_ENABLED: 'false', PAGE_CACHE: 'false' },
      sharedPostgres(inject('postgresUrl')),
    )
    carol = new ApiClient(uncached.baseUrl)
    await carol.signUp('Carol Uncached', 'carol-page-cache@example.com')
  }, 120_000)
  afterAll(() => uncached?.stop())

  it('renders every request: no two answers share a nonce', async () => {
    const nonces = new Set<string | undefined>()
    for (let i = 0; i < 10; i++) {
      const res = await fetch(uncached.baseUrl + '/jobs', { headers: { cookie: carol.cookieHeader } })
      expect(res.status).toBe(200)
      nonces.add(/'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1])
    }
    expect(nonces.size).toBe(10)
  })
})
