import { useEffect, type RefObject } from 'react'

/**
 * After a refused submit, brings the answer to where the person is looking: focus moves to the
 * form's first field marked invalid (the browser scrolls to it), else the first alert scrolls into
 * view. A long form is submitted from its bottom; its first problem is often a screen above.
 * `problem` is the refusal (a new value for each one), or null.
 */
export function useRevealProblem(form: RefObject<HTMLFormElement | null>, problem: unknown) {
  useEffect(() => {
    if (!problem) return
    const target = form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]')
    if (target?.getAttribute('aria-invalid') === 'true') target.focus()
    else target?.scrollIntoView({ block: 'center' })
  }, [form, problem])
}
