import { CalendarClock } from 'lucide-react'
import { EmptyState, PageHeader } from '#app/components/ui/card.tsx'

export const meta = () => [{ title: 'Jobs · Clockwork' }]

export default function Jobs() {
  return (
    <>
      <PageHeader title="Jobs" description="Prompts the agent runs by itself, on a schedule." />
      <EmptyState icon={<CalendarClock className="size-7" />} title="No jobs yet" />
    </>
  )
}
