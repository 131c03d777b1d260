/** Common schedules offered as one-click presets; anything else is "Custom". */
export const SCHEDULE_PRESETS = [
  { id: 'hourly', label: 'Every hour', cron: '0 * * * *' },
  { id: 'daily', label: 'Every day at 09:00', cron: '0 9 * * *' },
  { id: 'weekdays', label: 'Weekdays at 07:00', cron: '0 7 * * 1-5' },
  { id: 'monday', label: 'Every Monday at 09:00', cron: '0 9 * * 1' },
  { id: 'monthly', label: 'First of the month', cron: '0 9 1 * *' },
  { id: 'quarter-hour', label: 'Every 15 minutes', cron: '*/15 * * * *' },
  { id: 'ninety-minutes', label: 'Every 90 minutes', cron: 'every 90m' },
] as const

export type PresetId = (typeof SCHEDULE_PRESETS)[number]['id'] | 'custom'

/** The preset a cron expression matches exactly (ignoring extra spaces), else "custom". */
export function presetFor(cron: string): PresetId {
  const normalized = cron.trim().split(/\s+/).join(' ')
  return SCHEDULE_PRESETS.find((p) => p.cron === normalized)?.id ?? 'custom'
}
