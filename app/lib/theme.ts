/**
 * The colour theme: light, dark, or the system's. The choice lives in localStorage; an inline
 * script in the document head (THEME_SCRIPT) applies it before the first paint, so no flash.
 */
export type Theme = 'light' | 'dark' | 'system'
export const THEME_KEY = 'clockwork-theme'

/** Runs in <head> before anything renders: sets `.dark` on <html> and follows the system when asked. */
export const THEME_SCRIPT = `(function(){try{var k=${JSON.stringify(THEME_KEY)};var m=window.matchMedia('(prefers-color-scheme: dark)');var a=function(){var t=localStorage.getItem(k)||'system';var d=t==='dark'||(t==='system'&&m.matches);document.documentElement.classList.toggle('dark',d);document.documentElement.style.colorScheme=d?'dark':'light'};a();m.addEventListener('change',a);window.__applyTheme=a}catch(e){}})()`

export function readTheme(): Theme {
  if (typeof localStorage === 'undefined') return 'system'
  const value = localStorage.getItem(THEME_KEY)
  return value === 'light' || value === 'dark' ? value : 'system'
}

export function saveTheme(theme: Theme) {
  if (theme === 'system') localStorage.removeItem(THEME_KEY)
  else localStorage.setItem(THEME_KEY, theme)
  ;(window as { __applyTheme?: () => void }).__applyTheme?.()
}
