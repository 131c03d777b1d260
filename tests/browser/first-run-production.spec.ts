/**
 * A new user's first run of the production server: it reads `.env` as the dev server does
 * (first-run.spec.ts). Its own server from the real entry (build/server/index.js); a file of its own
 * so that it runs beside the dev-server tests.
 */
import { test } from '@playwright/test'
import { FIRST_RUN_TIMEOUT, testEnvFileIsRead } from './first-run.ts'

test.setTimeout(FIRST_RUN_TIMEOUT)

testEnvFileIsRead('production')
