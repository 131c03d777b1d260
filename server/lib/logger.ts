import { createRequire } from 'node:module'
import pino, { type LoggerOptions } from 'pino'
import { env } from '../env.ts'
import { singleton } from './singleton.ts'

const redact = ['*.apiKey', '*.password', '*.secret', 'headers.cookie', 'headers.authorization']

/**
 * Development prints readable lines through pino-pretty (a dev dependency, so a production
 * install never has it); production writes one JSON object per line for the platform's log
 * collector.
 */
function options(): LoggerOptions {
  const config = env()
  const level = config.NODE_ENV === 'test' ? 'silent' : config.LOG_LEVEL
  if (config.NODE_ENV !== 'development' || !hasPinoPretty()) return { level, redact }
  return {
    level,
    redact,
    transport: {
      target: 'pino-pretty',
      options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true },
    },
  }
}

function hasPinoPretty(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty')
    return true
  } catch {
    return false
  }
}

/** Structured server log. Keys and secrets never go in here (see redact paths). */
export const logger = singleton('logger', () => pino(options()))
