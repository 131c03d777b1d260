import { type RefObject, useEffect } from 'react'

/**
 * Keeps a GET form's uncontrolled fields in step with the page's address. A field's default only
 * counts when it is made, so after back/forward (or a link that changes the same choices) a select
 * would go on showing the person's earlier choice. Remaking the fields instead (a `key`) would
 * take the focus from a keyboard user in the middle of choosing. This sets just the fields that say
 * something else, after the page has the new answer.
 */
export function useFieldsFollowUrl(form: RefObject<HTMLFormElement | null>, values: Record<string, string>) {
  const shown = JSON.stringify(values)
  useEffect(() => {
    const fields = form.current?.elements
    if (!fields) return
    for (const [name, value] of Object.entries(JSON.parse(shown) as Record<string, string>)) {
      const field = fields.namedItem(name)
      if (
        (field instanceof HTMLSelectElement || field instanceof HTMLInputElement) &&
        field.value !== value
      ) {
        field.value = value
      }
    }
  }, [form, shown])
}
