/**
 * The attack: a job offer is a notice (a row in the member's list) and, with SMTP_URL, a mail from
 * the deployment to the member's address, which nobody verified (sign-up never asks). Anyone who
 * signs up is the admin of their own organisation; an account signed up under any address and
 * joined through the invitation link is a member. The admin then offers a shared job to it again
 * and again (POST /jobs/:id/transfer), or all the shared jobs of someone at once (POST
 * /members/:id/transfer-jobs), or a new offer after each change to the job, or many at the same
 * instant. Before, each was a mail and a row: 30 re-offers were 30 mails, the deployment a relay to
 * that address as invitations were before decision 0489. The safe outcome (decision 0525): a
 * standing offer made again tells nobody, a transfer of many jobs is one notice, and the address
 * gets at most one notice mail in ten minutes. Real PostgreSQL, real HTTP, a real SMTP server.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { pausedJob } from '#tests/support/runs.ts'
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts'
import { createTeam, type Team, type TeamPerson } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const J = '/_agent-native/jobs'
// Each test signs a team up first: five password hashes, slow on a busy 2-core machine.
const WITH_A_NEW_TEAM = 120_000
let app: TestApp
let smtp: SmtpSink

beforeAll(async () => {
  smtp = await startSmtpSink()
  app = await startTestApp({ env: { SMTP_URL: smtp.url } })
}, 120_000)
afterAll(async () => {
  await app?.close()
  await smtp?.close()
})

// Notice mails (not the invitation or sign-up ones), each sent before the request that made it is
// answered: what the sink holds then is all there will be.
const mailsTo = (who: TeamPerson) =>
  smtp.mails.filter((m) => m.to.includes(who.email) && m.subject.startsWith('[Clockwork] '))

const offerRows = async (who: TeamPerson) =>
  (
    await queryRows<{ title: string }>(
      app.server.db.db,
      sql`select title from notifications where user_id = ${who.id} and kind = 'transfer_offer'
          order by created_at`,
    )
  ).map((r) => r.title)

const sharedJob = (team: Team, name: string) => pausedJob(team.creator.client, name, { scope: 'shared' })

const offer = (team: Team, jobId: string, to: TeamPerson) =>
  team.admin.client.post(`${J}/${jobId}/transfer`, { toUserId: to.id })

/** What passing the pace's ten minutes does: the person's notices were all made before them. */
const tenMinutesPass = (who: TeamPerson) =>
  app.server.db.db.execute(
    sql`update notifications set created_at = created_at - interval '11 minutes' where user_id = ${who.id}`,
  )

describe('an admin offering a member a job', () => {
  it(
    'again and again, as it stands, tells them once: one notice, one mail, one audit entry',
    async () => {
      const team = await createTeam(app)
      const id = await sharedJob(team, 'offer-flood')
      const statuses: number[] = []
      for (let i = 0; i < 30; i++) statuses.push((await offer(team, id, team.member)).status)
      expect(statuses).toEqual(Array(30).fill(200))
      expect(mailsTo(team.member)).toHaveLength(1)
      expect(await offerRows(team.member)).toEqual([`Adam Admin offered you the job offer-flood`])
      const audit = (await team.admin.client.get(`${J}/${id}/audit`)).body.entries as { action: string }[]
      expect(audit.filter((e) => e.action === 'transfer_offer')).toHaveLength(1)
      const standing = await team.member.client.get(`${J}/${id}/transfer`)
      expect(standing.body.offer).toMatchObject({ to: { id: team.member.id }, lapsed: false })
    },
    WITH_A_NEW_TEAM,
  )

  it(
    'anew after each change to the job lists each offer, and mails the address once in ten minutes',
    async () => {
      const team = await createTeam(app)
      const id = await sharedJob(team, 'offer-churn')
      let version: number = (await team.admin.client.get(`${J}/${id}`)).body.job.version
      for (let i = 0; i < 5; i++) {
        expect((await offer(team, id, team.member)).status).toBe(200)
        const edited = await team.admin.client.patch(
          `${J}/${id}`,
          { instructions: `Version ${i}.` },
          { 'if-match': `"${version}"` },
        )
        expect(edited.status, JSON.stringify(edited.body)).toBe(200)
        version = edited.body.job.version
      }
      // Five offers, each of a job the member has not seen: each listed, one mailed.
      expect(await offerRows(team.member)).toHaveLength(5)
      expect(mailsTo(team.member)).toHaveLength(1)
      expect(mailsTo(team.member)[0]!.text).toContain('listed in Clockwork')

      await tenMinutesPass(team.member)
      expect((await offer(team, id, team.member)).status).toBe(200)
      expect(mailsTo(team.member)).toHaveLength(2)
    },
    WITH_A_NEW_TEAM,
  )

  it(
    'many at the same instant mails the address once',
    async () => {
      const team = await createTeam(app)
      const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => sharedJob(team, `at-once-${i}`)))
      const answers = await Promise.all(ids.map((id) => offer(team, id, team.member)))
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200))
      expect(await offerRows(team.member)).toHaveLength(10)
      expect(mailsTo(team.member)).toHaveLength(1)
    },
    WITH_A_NEW_TEAM,
  )
})

describe("an admin offering a member someone's shared jobs in one request", () => {
  it(
    'tells them once, naming the jobs, and again as they stand not at all',
    async () => {
      const team = await createTeam(app)
      const names = Array.from({ length: 12 }, (_, i) => `bulk-${String(i).padStart(2, '0')}`)
      for (const name of names) await sharedJob(team, name)
      const path = `/_agent-native/members/${team.creator.id}/transfer-jobs`
      for (let i = 0; i < 5; i++) {
        const res = await team.admin.client.post(path, { toUserId: team.member.id })
        expect(res.status, JSON.stringify(res.body)).toBe(200)
        expect(res.body).toMatchObject({ outcome: 'offered' })
        expect(res.body.jobs).toHaveLength(12)
      }
      expect(await offerRows(team.member)).toEqual(['Adam Admin offered you 12 jobs'])
      const mails = mailsTo(team.member)
      expect(mails).toHaveLength(1)
      expect(mails[0]!.subject).toBe('[Clockwork] Adam Admin offered you 12 jobs')
      for (const name of names.slice(0, 10)) expect(mails[0]!.text).toContain(name)
      expect(mails[0]!.text).toContain('and 2 more')
    },
    WITH_A_NEW_TEAM,
  )
})
