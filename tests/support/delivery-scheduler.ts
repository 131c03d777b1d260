/**
 * The real scheduler with the agent executor and the delivery hooks beside a test app, as
 * delivery tests start it (retries milliseconds apart instead of minutes; everything else is the
 * production path), and `runToTheEnd`: a run now that waits for the run's deliveries and alerts.
 */
import { createAgentExecutor } from '#server/agent/run-executor.ts'
import { integrationHooks } from '#server/integrations/run-delivery.ts'
import { startScheduler } from '#server/scheduler/scheduler.ts'
import type { ApiClient } from './api-client.ts'
import { eventually } from './poll.ts'
import { runNow } from './runs.ts'
import type { TestApp } from './test-app.ts'

export type DeliveryScheduler = Awaited<ReturnType<typeof startDeliveryScheduler>>

export async function startDeliveryScheduler(app: TestApp, backoffMs: number[] = [20, 20]) {
  /** Runs the scheduler has handed to `afterSettle`: the run's row reads final a moment before. */
  const handedOver = new Set<string>()
  const hooks = integrationHooks({ backoffMs, db: app.server.db.db })
  const scheduler = await startScheduler({
    handle: app.server.db,
    executor: createAgentExecutor(),
    graceMs: 1_000,
    afterSettle: (run) => {
      handedOver.add(run.id)
      hooks.afterSettle(run)
    },
  })
  return {
    /**
     * Runs the job now as `client` and waits until its deliveries and alerts are done. The runner
     * commits a run's end before it calls `afterSettle`, so the hooks are waited for only once the
     * run has been handed to them: `hooks.idle()` alone could find nothing in flight yet.
     */
    async runToTheEnd(client: ApiClient, jobId: string) {
      const { run } = await runNow(client, jobId)
      await eventually(`run ${run.id} handed to the delivery hooks`, () => handedOver.has(run.id))
      await hooks.idle()
      return run as { id: string; status: string }
    },
    stop: () => scheduler.stop(),
  }
}
