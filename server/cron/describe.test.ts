import { describe, expect, it } from 'vitest'
import { describeCron } from './cron.ts'

describe('describeCron', () => {
  it.each([
    // Minutes
    ['* * * * *', 'Every minute'],
    ['*/1 * * * *', 'Every minute'],
    ['*/5 * * * *', 'Every 5 minutes'],
    ['0-59/10 * * * *', 'Every 10 minutes'],
    ['0,30 * * * *', 'Every 30 minutes'],
    ['*/15 * * * *', 'Every 15 minutes'],
    ['* 9 * * *', 'Every minute between 09:00 and 09:59'],
    ['* 9-10 * * *', 'Every minute between 09:00 and 10:59'],
    ['*/15 9-17 * * 1-5', 'Every 15 minutes between 09:00 and 17:59 on weekdays'],
    ['*/30 22-23 * * *', 'Every 30 minutes between 22:00 and 23:59'],
    ['*/10 * * * 6,0', 'Every 10 minutes on weekends'],
    ['*/20 * * * 2-4', 'Every 20 minutes from Tuesday to Thursday'],
    ['* * * * 1,3,5', 'Every minute on Mondays, Wednesdays and Fridays'],
    ['*/5 * * * 1', 'Every 5 minutes on Mondays'],
    ['*/5 * * 12 *', 'Every 5 minutes in December'],
    // Hours
    ['0 * * * *', 'Every hour'],
    ['15 * * * *', 'Every hour at :15'],
    ['5 * * * *', 'Every hour at :05'],
    ['15,45 * * * *', 'Every hour at :15 and :45'],
    ['0 */2 * * *', 'Every 2 hours'],
    ['0 0-23/2 * * *', 'Every 2 hours'],
    ['30 */6 * * *', 'Every 6 hours at :30'],
    ['0 */12 * * *', 'Every 12 hours'],
    ['0 */5 * * *', 'Every 5 hours from 00:00 to 20:00'],
    ['0 9-17 * * *', 'Every hour from 09:00 to 17:00'],
    ['30 8-18/2 * * *', 'Every 2 hours from 08:30 to 18:30'],
    ['0 9-17 * * 1-5', 'Every hour from 09:00 to 17:00 on weekdays'],
    ['0 * * * 0', 'Every hour on Sundays'],
    ['0 * 1 * *', 'Every hour on the 1st of every month'],
    // Days
    ['0 7 * * *', 'Every day at 07:00'],
    ['30 18 * * *', 'Every day at 18:30'],
    ['0 0 * * *', 'Every day at 00:00'],
    ['59 23 * * *', 'Every day at 23:59'],
    ['0 9,17 * * *', 'Every day at 09:00 and 17:00'],
    ['0 8,12,18 * * *', 'Every day at 08:00, 12:00 and 18:00'],
    ['0,30 9 * * *', 'Every 30 minutes between 09:00 and 09:59'],
    ['15,45 9 * * *', 'Every day at 09:15 and 09:45'],
    ['0 9-12 * * *', 'Every day at 09:00, 10:00, 11:00 and 12:00'],
    ['0 0 * * 0-6', 'Every day at 00:00'],
    ['0 0 1-31 * 1', 'Every day at 00:00'],
    // Weekdays
    ['0 7 * * 1-5', 'Every weekday at 07:00'],
    ['0 9 * * MON-FRI', 'Every weekday at 09:00'],
    ['0 9 * * mon-fri', 'Every weekday at 09:00'],
    ['30 9 * * 1', 'Every Monday at 09:30'],
    ['0 9 * * MON', 'Every Monday at 09:00'],
    ['30 0 * * 7', 'Every Sunday at 00:30'],
    ['0 9 * * 1,5', 'Every Monday and Friday at 09:00'],
    ['0 9 * * MON,WED,FRI', 'Every Monday, Wednesday and Friday at 09:00'],
    ['0 9 * * 1-4', 'Every Monday to Thursday at 09:00'],
    ['0 0 * * 5-7', 'Every Friday to Sunday at 00:00'],
    ['0 12 * * 0,6', 'Every Saturday and Sunday at 12:00'],
    ['0 8,20 * * 1-5', 'Every weekday at 08:00 and 20:00'],
    ['0 9 * * 1,2,3,5,6,0', 'Every Monday, Tuesday, Wednesday, Friday, Saturday and Sunday at 09:00'],
    // Days of the month
    ['0 9 1 * *', 'At 09:00 on the 1st of every month'],
    ['0 0 2 * *', 'At 00:00 on the 2nd of every month'],
    ['0 0 3 * *', 'At 00:00 on the 3rd of every month'],
    ['0 0 11 * *', 'At 00:00 on the 11th of every month'],
    ['0 0 22 * *', 'At 00:00 on the 22nd of every month'],
    ['0 0 31 * *', 'At 00:00 on the 31st of every month'],
    ['0 0 1,15 * *', 'At 00:00 on the 1st and 15th of every month'],
    ['0 0 1-7 * *', 'At 00:00 on the 1st to 7th of every month'],
    ['0 9,18 1 * *', 'At 09:00 and 18:00 on the 1st of every month'],
    ['0 0 13 * 5', 'At 00:00 on the 13th of every month and on Fridays'],
    // Months
    ['0 9 15 6 *', 'At 09:00 on 15 June'],
    ['0 0 22 2 *', 'At 00:00 on 22 February'],
    ['0 0 1 1,4,7,10 *', 'At 00:00 on the 1st of January, April, July and October'],
    ['0 0 1 */3 *', 'At 00:00 on the 1st of January, April, July and October'],
    ['0 9 1 3-10 *', 'At 09:00 on the 1st of every month from March to October'],
    ['0 0 1,15 6 *', 'At 00:00 on the 1st and 15th of June'],
    ['0 9 * 12 *', 'Every day at 09:00 in December'],
    ['0 9 * 6-8 *', 'Every day at 09:00 from June to August'],
    ['0 9 * 1,7 *', 'Every day at 09:00 in January and July'],
    ['0 9 * JAN-MAR MON', 'Every Monday at 09:00 from January to March'],
    ['0 7 * * 1-5 ', 'Every weekday at 07:00'],
    // Macros
    ['@hourly', 'Every hour'],
    ['@daily', 'Every day at 00:00'],
    ['@midnight', 'Every day at 00:00'],
    ['@weekly', 'Every Sunday at 00:00'],
    ['@monthly', 'At 00:00 on the 1st of every month'],
    ['@yearly', 'At 00:00 on 1 January'],
    ['@annually', 'At 00:00 on 1 January'],
    // Shapes without a clear sentence fall back to the expression
    ['5,7 */3 2-9/2 * 1', 'Cron: 5,7 */3 2-9/2 * 1'],
    ['0 0 */2 * *', 'Cron: 0 0 */2 * *'],
    ['0 9 1 1 1', 'Cron: 0 9 1 1 1'],
    ['0-29 * * * *', 'Cron: 0-29 * * * *'],
    ['*/7 * * * *', 'Cron: */7 * * * *'],
    ['*/15 9,17 * * *', 'Cron: */15 9,17 * * *'],
    ['5,7  */3 2-9/2 *\t1', 'Cron: 5,7 */3 2-9/2 * 1'],
  ])('%j → %s', (expr, expected) => {
    expect(describeCron(expr)).toBe(expected)
  })

  // Decision: the zone is appended whenever one is given, UTC included.
  it.each([
    ['0 7 * * 1-5', 'Europe/Berlin', 'Every weekday at 07:00 (Europe/Berlin)'],
    ['0 7 * * *', 'UTC', 'Every day at 07:00 (UTC)'],
    ['*/5 * * * *', 'America/New_York', 'Every 5 minutes (America/New_York)'],
    ['5,7 */3 2-9/2 * 1', 'Asia/Tokyo', 'Cron: 5,7 */3 2-9/2 * 1 (Asia/Tokyo)'],
    ['0 7 * * *', 'Mars/Olympus_Mons', 'Every day at 07:00 (unknown timezone "Mars/Olympus_Mons")'],
  ])('%s in %s → %s', (expr, timezone, expected) => {
    expect(describeCron(expr, { timezone })).toBe(expected)
  })

  it('leaves the zone out when none is given', () => {
    expect(describeCron('0 7 * * *', {})).toBe('Every day at 07:00')
  })

  // Decision: an invalid schedule is described, not thrown, so a label can render anything typed.
  it.each([
    ['0 25 * * *', 'Invalid schedule: hour: 25 is out of range (0–23)'],
    ['', 'Invalid schedule: schedule is empty'],
    [
      '* * * * * *',
      'Invalid schedule: expected 5 fields (minute hour day-of-month month day-of-week), got 6',
    ],
    ['* * L * *', 'Invalid schedule: day-of-month: L uses L or W'],
  ])('%j → %s…', (expr, expected) => {
    expect(describeCron(expr, { timezone: 'UTC' })).toContain(expected)
  })
})
