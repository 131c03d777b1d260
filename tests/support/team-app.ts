/**
 * The set-up most API test files share: one test app (its own database) with a team in it, started
 * before the file's tests and closed after them. Read `suite.app` and `suite.team` inside tests.
 */
import { afterAll, beforeAll } from 'vitest'
import { createTeam, type Team } from './team.ts'
import { startTestApp, type TestApp } from './test-app.ts'

export type TeamApp = { app: TestApp; team: Team }

export function withTeamApp(): TeamApp {
  const suite = {} as TeamApp
  beforeAll(async () => {
    suite.app = await startTestApp()
    suite.team = await createTeam(suite.app)
  })
  afterAll(() => suite.app?.close())
  return suite
}
