/**
 * Every Vite dev server React Router's plugin starts empties `.react-router/types` and writes it
 * again, from a promise nobody awaits. Test files start their apps in parallel processes, so one
 * process's `rm -rf` can meet another's fresh files (ENOTEMPTY) or a write can lose its folder
 * (ENOENT). Those generated type files are read by `npm run typecheck` only, which writes its own
 * before `tsc`; no test reads them. Only that error, on that folder, is not counted (decision 0332).
 */
export function isTypegenRace(error: unknown): boolean {
  const { code, path } = (error ?? {}) as { code?: unknown; path?: unknown }
  return (
    (code === 'ENOTEMPTY' || code === 'ENOENT') &&
    typeof path === 'string' &&
    path.split(/[\\/]/).join('/').includes('/.react-router/types')
  )
}
