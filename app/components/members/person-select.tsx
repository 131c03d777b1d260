import { inputClass } from '#app/components/ui/field.tsx'
import { cn } from '#app/lib/cn.ts'

/** A required choice of one person, submitted as their user id under `name`. */
export function PersonSelect<P extends { userId: string; name: string; email: string }>({
  name,
  label,
  placeholder,
  people,
  describe = (p) => `${p.name} (${p.email})`,
  className,
}: {
  name: string
  label: string
  placeholder: string
  people: readonly P[]
  describe?: (person: P) => string
  className?: string
}) {
  return (
    <select
      name={name}
      aria-label={label}
      required
      defaultValue=""
      className={cn(inputClass, 'w-auto py-1.5', className)}
    >
      <option value="" disabled>
        {placeholder}
      </option>
      {people.map((p) => (
        <option key={p.userId} value={p.userId}>
          {describe(p)}
        </option>
      ))}
    </select>
  )
}
