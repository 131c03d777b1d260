/**
 * Icons a page repeats on every row, drawn once per document as SVG symbols and referenced with
 * `<use>`: a jobs page of 50 rows otherwise renders the same paths a few hundred times, which was
 * a measurable share of its server render (docs/decisions/0261-row-icons-from-a-sprite.md).
 * Icons shown once (headers, menus) stay ordinary lucide components.
 */
import { AlertTriangle, Handshake, Lock, MoreHorizontal, Pause, ShieldAlert, Users } from 'lucide-react'

const SYMBOLS = {
  lock: Lock,
  users: Users,
  pause: Pause,
  alert: AlertTriangle,
  shield: ShieldAlert,
  handshake: Handshake,
  more: MoreHorizontal,
}

export type SpriteIconName = keyof typeof SYMBOLS

/** The symbols, once per document (the root layout renders it). */
export function IconSprite() {
  return (
    <svg aria-hidden="true" className="absolute size-0 overflow-hidden" focusable="false">
      {Object.entries(SYMBOLS).map(([name, Icon]) => (
        <symbol key={name} id={`icon-${name}`} viewBox="0 0 24 24">
          <Icon />
        </symbol>
      ))}
    </svg>
  )
}

/** One icon of the sprite; decorative (aria-hidden), sized by `className`. */
export function SpriteIcon({ name, className }: { name: SpriteIconName; className?: string }) {
  return (
    <svg aria-hidden="true" className={className}>
      <use href={`#icon-${name}`} />
    </svg>
  )
}
