/**
 * What delivery tests start with: the app in this process, a signed-in team, the fake model
 * server and a webhook receiver the outbound guard lets through. `close()` stops all of it.
 */
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.ts'
import { createTeam, type Team } from './team.ts'
import { startTestApp, type TestApp } from './test-app.ts'
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts'

export type DeliveryApp = {
  app: TestApp
  team: Team
  fake: FakeAnthropic
  receiver: WebhookReceiver
  close(): Promise<void>
}

/** `apiKey` is the deployment's model key; the model answers `fallbackText` unless told otherwise. */
export async function startDeliveryApp(apiKey: string, fallbackText: string): Promise<DeliveryApp> {
  const fake = await startFakeAnthropic({ apiKey, fallback: { text: fallbackText } })
  const receiver = await startWebhookReceiver()
  const app = await startTestApp({
    env: {
      ANTHROPIC_API_KEY: apiKey,
      ANTHROPIC_BASE_URL: fake.baseURL,
      INTEGRATIONS_ALLOW_HOSTS: receiver.hostPort,
    },
  })
  const team = await createTeam(app)
  return {
    app,
    team,
    fake,
    receiver,
    close: async () => {
      await app.close()
      await Promise.all([fake.close(), receiver.close()])
    },
  }
}
