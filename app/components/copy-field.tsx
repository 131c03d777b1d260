import { Check, Copy } from 'lucide-react'
import { useState } from 'react'
import { inputClass } from '#app/components/ui/field.tsx'
import { Button } from '#app/components/ui/button.tsx'

/** A read-only value with a copy button (invite links: no mail server is assumed). */
export function CopyField({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false)
  async function copy() {
    await navigator.clipboard?.writeText(value).catch(() => {})
    setCopied(true)
    setTimeout(() => setCopied(false), 1500)
  }
  return (
    <div className="flex gap-2">
      <input
        readOnly
        value={value}
        aria-label={label}
        className={inputClass + ' font-mono text-xs'}
        onFocus={(e) => e.currentTarget.select()}
      />
      <Button variant="secondary" onClick={() => void copy()} aria-label={`Copy ${label}`}>
        {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
        {copied ? 'Copied' : 'Copy'}
      </Button>
    </div>
  )
}
