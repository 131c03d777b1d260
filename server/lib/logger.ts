import pino from 'pino'
import { env } from '../env.ts'
import { singleton } from './singleton.ts'

/** Structured server log. Keys and secrets never go in here (see redact paths). */
export const logger = singleton('logger', () =>
  pino({
    level: env().NODE_ENV === 'test' ? 'silent' : env().LOG_LEVEL,
    redact: ['*.apiKey', '*.password', '*.secret', 'headers.cookie', 'headers.authorization'],
  }),
)
