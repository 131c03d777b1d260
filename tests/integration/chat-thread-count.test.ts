/**
 * MAX_THREAD_MESSAGES bounds one chat thread, but nothing bounded how many a person had: every
 * message sent without a thread id made a new one, so a script could store threads without end.
 * A person now has at most USER_MAX_CHAT_THREADS chat threads, counted in every organisation
 * (anyone can make one); the next new chat is 403 too_many_chats in plain words, storing nothing,
 * while going on in an existing thread still works (decision 0485). Real HTTP, real Postgres, the
 * real Anthropic provider against the fake Messages API.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'

const KEY = 'sk-ant-deployment-thread-count'
const LIMIT = 3

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, env: { USER_MAX_CHAT_THREADS: String(LIMIT) } })
}, 240_000)
afterAll(() => agent?.close())

const threadsOf = async (userId: string) =>
  (
    await queryRows<{ n: number }>(
      agent.app.server.db.db,
      sql`select count(*)::int as n from agent_threads where user_id = ${userId} and kind = 'chat'`,
    )
  )[0]!.n

it('refuses a new chat past the limit, even several at once and in another organisation of theirs', async () => {
  const { member } = agent.team
  // A script sends new chats all at once: exactly as many as fit are made.
  const turns = await Promise.all(
    Array.from({ length: LIMIT + 3 }, (_, i) => sendChat(member.client, { message: userText(`chat ${i}`) })),
  )
  expect(turns.map((t) => t.status).sort()).toEqual([200, 200, 200, 403, 403, 403])
  const refused = turns.find((t) => t.status === 403)!
  expect(refused.error).toMatchObject({
    code: 'too_many_chats',
    field: 'threadId',
    message: `You have ${LIMIT} chats, the most one person may have. Delete old ones in History to start a new one, or go on in one of them.`,
  })
  expect(await threadsOf(member.id)).toBe(LIMIT)

  // An organisation of their own, made for it, does not give them more.
  const created = await member.client.post('/_agent-native/auth/organization/create', {
    name: 'More Room',
    slug: 'more-room-threads',
  })
  expect(created.status).toBe(200)
  await member.client.post('/_agent-native/auth/organization/set-active', { organizationId: created.body.id })
  const before = await snapshotTables(agent.app.server.db)
  const elsewhere = await sendChat(member.client, { message: userText('in my other organisation') })
  expect(elsewhere.status).toBe(403)
  // History lists this organisation's chats, none: the refusal says where they are.
  const teamName = (
    await queryRows<{ name: string }>(
      agent.app.server.db.db,
      sql`select name from organization where id = ${agent.team.orgId}`,
    )
  )[0]!.name
  expect(elsewhere.error).toMatchObject({
    code: 'too_many_chats',
    message: `You have ${LIMIT} chats, the most one person may have; ${LIMIT} of them are in other organisations (${teamName}: ${LIMIT}), each listed in its own History. Delete old ones in History to start a new one, or go on in one of them.`,
  })
  expect(await snapshotTables(agent.app.server.db)).toEqual(before)

  // Going on in a chat they have still works.
  await member.client.post('/_agent-native/auth/organization/set-active', {
    organizationId: agent.team.orgId,
  })
  const open = turns.find((t) => t.status === 200)!
  const more = await sendChat(member.client, { threadId: open.threadId, message: userText('and more') })
  expect(more.status).toBe(200)
  // Another person's chats are theirs to count.
  const other = await sendChat(agent.team.admin.client, { message: userText('my first chat') })
  expect(other.status).toBe(200)
})

it('does not count chats in an organisation the person has left: they cannot see or delete them there', async () => {
  const { creator, owner } = agent.team
  for (let i = 0; i < LIMIT; i++) {
    expect((await sendChat(creator.client, { message: userText(`creator chat ${i}`) })).status).toBe(200)
  }
  expect((await sendChat(creator.client, { message: userText('one too many') })).status).toBe(403)
  const removed = await owner.client.post('/_agent-native/auth/organization/remove-member', {
    memberIdOrEmail: creator.email,
    organizationId: agent.team.orgId,
  })
  expect(removed.status).toBe(200)
  // In their own workspace, the chats they can no longer reach do not hold them back.
  const orgs = await creator.client.get('/_agent-native/auth/organization/list')
  expect(orgs.body).toHaveLength(1)
  await creator.client.post('/_agent-native/auth/organization/set-active', {
    organizationId: orgs.body[0].id,
  })
  expect((await sendChat(creator.client, { message: userText('a fresh start') })).status).toBe(200)
  // The chats stay stored, for the person's return.
  expect(await threadsOf(creator.id)).toBe(LIMIT + 1)
})
