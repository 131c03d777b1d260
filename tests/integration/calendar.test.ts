/**
 * The calendar's data, at the loader's level on real Postgres: across Europe/Berlin's spring-forward
 * day the fires it lists are exactly the jobs' `nextRuns`, each on its local day, the DST day is
 * marked, past runs carry their status, and filters and visibility hold.
 */
import { describe, expect, it } from 'vitest'
import { loadCalendar, localDate, MAX_ENTRIES_PER_DAY, MAX_FIRES_PER_JOB } from '#server/calendar/calendar.ts'
import { nextRuns } from '#server/cron/cron.ts'
import { jobRuns } from '#server/db/schema/index.ts'
import { newId } from '#server/lib/ids.ts'
import { withSchedulerDatabase } from '#tests/support/scheduler-suite.ts'
import { createOwner, insertJob } from '#tests/support/scheduler-fixtures.ts'

const suite = withSchedulerDatabase()
const ZONE = 'Europe/Berlin'
const NOW = new Date('2026-03-27T12:00:00Z')

describe('the calendar across a DST change', () => {
  it('lists the fires nextRuns gives, on their local days, with the DST day marked', async () => {
    const caller = { ...suite.owner.caller, timezone: ZONE }
    const db = suite.db()
    const schedules = [
      ['30 2 * * *', ZONE], // in the gap on 29 Mar: runs when it ends, 03:00 local
      ['*/45 * * * *', ZONE],
      ['every 90m', ZONE],
      ['at 2026-03-29T02:30', ZONE],
      ['0 9 * * 1-5', 'America/New_York'],
    ] as const
    const ids: string[] = []
    for (const [schedule, timezone] of schedules)
      ids.push(await insertJob(db, suite.owner, { schedule, timezone }, NOW))
    const paused = await insertJob(db, suite.owner, { schedule: '0 * * * *', enabled: false }, NOW)
    await insertJob(db, suite.owner, { schedule: '0 * * * *', scope: 'shared' }, NOW)
    await db.insert(jobRuns).values({
      id: newId('run'),
      jobId: ids[0]!,
      orgId: suite.owner.orgId,
      trigger: 'schedule',
      scheduledFor: new Date('2026-03-27T01:30:00Z'),
      status: 'error',
    })
    // Someone else's job in another organisation never shows.
    const stranger = await createOwner(db, 'Stranger')
    await insertJob(db, stranger, { schedule: '* * * * *' }, NOW)

    const calendar = await loadCalendar(
      caller,
      { start: '2026-03-27', days: '7', scope: 'personal' },
      NOW,
      db,
    )
    expect(calendar.zone).toBe(ZONE)
    expect(calendar.days.map((d) => d.date)).toEqual([
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
      '2026-03-30',
      '2026-03-31',
      '2026-04-01',
      '2026-04-02',
    ])
    expect(calendar.days.map((d) => d.dst)).toEqual([
      null,
      null,
      { from: 'UTC+01:00', to: 'UTC+02:00' },
      null,
      null,
      null,
      null,
    ])
    const end = new Date('2026-04-02T22:00:00Z') // 3 Apr 00:00 in Berlin (summer time)
    const entries = calendar.days.flatMap((d) => d.entries.map((e) => ({ ...e, date: d.date })))
    // A day lists its first 50 entries and counts the rest; one job at a time, every fire is listed.
    const perDay = new Map<string, number>()
    for (const [i, [schedule, timezone]] of schedules.entries()) {
      const expected = nextRuns(schedule, { after: NOW, timezone, count: MAX_FIRES_PER_JOB })
        .filter((d) => d < end)
        .map((d) => d.toISOString())
      const alone = await loadCalendar(caller, { start: '2026-03-27', days: '7', job: ids[i] }, NOW, db)
      const listed = alone.days
        .flatMap((d) => d.entries.map((e) => ({ ...e, date: d.date })))
        .filter((e) => e.kind === 'fire' && e.jobId === ids[i])
      for (const day of alone.days) perDay.set(day.date, (perDay.get(day.date) ?? 0) + day.entries.length)
      expect(
        listed.map((e) => e.at),
        schedule,
      ).toEqual(expected)
      for (const e of listed) expect(e.date, `${schedule} ${e.at}`).toBe(localDate(ZONE, Date.parse(e.at)))
    }
    for (const day of calendar.days) {
      const all = perDay.get(day.date)!
      expect(day.entries, day.date).toHaveLength(Math.min(all, MAX_ENTRIES_PER_DAY))
      expect(day.more, day.date).toBe(Math.max(0, all - MAX_ENTRIES_PER_DAY))
    }
    expect(calendar.days[1]!.more).toBeGreaterThan(0)
    // The gap-day fire of the 02:30 job is at 03:00 local (01:00Z), on 29 Mar.
    const gapDay = calendar.days[2]!.entries.filter((e) => e.jobId === ids[0])
    expect(gapDay.map((e) => e.at)).toEqual(['2026-03-29T01:00:00.000Z'])
    // */45 and every 90m have 214 and 102 fires in the week: listed up to the cap, and flagged.
    expect(calendar.capped.sort()).toEqual([ids[1], ids[2]].sort())
    // The past run, with its status, on its local day; nothing of the paused, shared or stranger's jobs.
    expect(calendar.days[0]!.entries[0]).toMatchObject({ kind: 'run', status: 'error', jobId: ids[0] })
    expect(entries.some((e) => e.jobId === paused)).toBe(false)
    expect(new Set(entries.map((e) => e.jobId))).toEqual(new Set(ids))

    const one = await loadCalendar(caller, { start: '2026-03-27', job: ids[3] }, NOW, db)
    expect(one.days.flatMap((d) => d.entries).map((e) => e.at)).toEqual(['2026-03-29T01:00:00.000Z'])
    const shared = await loadCalendar(caller, { start: '2026-03-27', scope: 'shared' }, NOW, db)
    expect(new Set(shared.days.flatMap((d) => d.entries).map((e) => e.jobId)).size).toBe(1)
  })

  it.each([
    [{ days: '14' }, 'days'],
    [{ start: '2026-02-30' }, 'start'],
    [{ start: '2026-13-45' }, 'start'],
    [{ view: 'month' }, 'view'],
  ])('refuses %j with a 400 naming %s', async (query, field) => {
    await expect(loadCalendar(suite.owner.caller, query, NOW, suite.db())).rejects.toMatchObject({
      status: 400,
      field,
    })
  })
})
