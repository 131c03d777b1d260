/**
 * The server entry's first import: reads `.env` into process.env, then checks the whole
 * environment, before any other module runs. Modules read the environment at import time
 * (the logger picks its level, the model provider its base URL), so this must come first in
 * every entry (`npm run dev`, `npm start`, a bundled server) and it is one module for all.
 *
 * A bad environment ends the process here, before a port is opened: one line per problem,
 * naming the variable, and no stack trace.
 */
import { existsSync } from 'node:fs'
import { EnvError, envFilePath, parseEnv } from '../env.ts'

const file = envFilePath()
/** The file that was read, for the start-up log; null when there was none. */
export const loadedEnvFile = file && existsSync(file) ? file : null
// Variables already set (by the shell, the platform or a test) win over the file, as everywhere.
if (loadedEnvFile) process.loadEnvFile(loadedEnvFile)
else if (file && process.env.ENV_FILE) fail([`ENV_FILE: ${file} does not exist`])

try {
  parseEnv(process.env)
} catch (err) {
  if (!(err instanceof EnvError)) throw err
  fail(err.problems)
}

function fail(problems: string[]): never {
  console.error(`Clockwork cannot start: fix these environment variables (see .env.example).`)
  for (const problem of problems) console.error(`  ${problem}`)
  process.exit(1)
}
