/**
 * A refused key is announced by mail too when SMTP is on (decision 0505), and a mail server may
 * not answer: nodemailer waits 30 s for its greeting, and minutes on a stalled socket. The
 * announcement was awaited before the provider's answer was passed on, so the first refused chat
 * turn waited as long as the mail server did. Here mail goes through a relay to a real SMTP sink
 * while the team is made (its invitations and confirmations are mailed), and then the relay
 * accepts connections and never says a word: the turn still ends, well within the test's 20 s
 * where the greeting alone would take 30, and the in-app notification is written.
 */
import { connect, createServer, type Socket } from 'node:net'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts'

const KEY = 'sk-ant-deployment-key-refused-mail'
const REVOKED_KEY = 'sk-ant-revoked-key-4444444444'

let sink: SmtpSink
let silent = false
const held: Socket[] = []
/** Passes connections on to the sink until `silent`; then holds them, saying nothing. */
const relay = createServer((client) => {
  if (silent) return void held.push(client)
  const { port } = new URL(sink.url)
  const upstream = connect(Number(port), '127.0.0.1')
  client.pipe(upstream).pipe(client)
  const end = () => (client.destroy(), upstream.destroy())
  client.on('error', end).on('close', end)
  upstream.on('error', end).on('close', end)
})
let agent: AgentApp
beforeAll(async () => {
  sink = await startSmtpSink()
  relay.listen(0, '127.0.0.1')
  await once(relay, 'listening')
  const { port } = relay.address() as AddressInfo
  agent = await startAgentApp({ key: KEY, env: { SMTP_URL: `smtp://127.0.0.1:${port}` } })
}, 240_000)
afterAll(async () => {
  for (const socket of held) socket.destroy()
  relay.close()
  await agent?.close()
  await sink?.close()
})

it('answers the first refused turn without waiting for a mail server that never answers', async () => {
  const client = agent.team.member.client
  // A key that worked when it was saved (decision 0514) and was revoked since.
  agent.fake.acceptKey(REVOKED_KEY)
  const saved = await client.request('PUT', '/_agent-native/model-keys', {
    scope: 'personal',
    apiKey: REVOKED_KEY,
  })
  expect(saved.status).toBe(200)
  agent.fake.revokeKey(REVOKED_KEY)
  silent = true
  const turn = await sendChat(client, { message: userText('hello on a key revoked since it was saved') })
  expect(turn.status).toBe(200)
  expect(JSON.stringify(turn.chunks)).toContain('rejected the API key (401)')
  // Written in the app all the same, and the mail on its way to the server that does not answer.
  await expect
    .poll(() =>
      queryRows<{ n: number }>(
        agent.app.server.db.db,
        sql`select count(*)::int as n from notifications where kind = 'key_refused' and user_id = ${agent.team.member.id}`,
      ),
    )
    .toEqual([{ n: 1 }])
  await expect.poll(() => held.length).toBeGreaterThan(0)
}, 20_000)
