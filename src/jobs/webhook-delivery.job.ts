import type { Agenda } from 'agenda';
import type { Logger } from '../logger.js';
import type { Services } from '../services.js';

export const WEBHOOK_DELIVER_JOB = 'webhook.deliver';

/** How often the outbox is swept besides the in-process wake-ups (restarts, other processes' expired leases). */
const SWEEP_INTERVAL_MS = 30_000;

/**
 * `webhook.deliver`: a periodic sweep of the delivery outbox (and pruning of old finished deliveries). The
 * sending itself runs in the dispatcher of every process that runs jobs, woken as deliveries are committed.
 */
export function defineWebhookDeliveryJob(agenda: Agenda, services: Services, logger: Logger, lockLifetimeMs: number) {
  agenda.define(
    WEBHOOK_DELIVER_JOB,
    async () => {
      await services.webhookDispatcher.sweep();
      const pruned = await services.pruneWebhookDeliveries();
      if (pruned) logger.info({ pruned }, 'old webhook deliveries pruned');
    },
    { lockLifetime: lockLifetimeMs },
  );
  return {
    plan: () => agenda.every(SWEEP_INTERVAL_MS, WEBHOOK_DELIVER_JOB, {}, { skipImmediate: true }),
  };
}
