import type { DataSource } from 'typeorm';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { ChangeSink, WatchDemand } from '../audit/change-pipeline.js';
import type { SecretBox } from '../secret-box.js';
import { SEQ_POSITION, type SignedCursors } from '../signed-cursor.js';
import { AttemptRecorder, type DeliveryAttempted } from './attempt-recorder.js';
import { DeliveryDispatcher } from './delivery-dispatcher.js';
import { DeliveryLogService } from './delivery-log.service.js';
import { DeliveryStore } from '../../repositories/delivery-store.js';
import { WebhookHttpSender } from './http-sender.js';
import { WebhookUrlGuard } from './url-guard.js';
import { WebhookChangeSink } from './webhook-change-sink.js';
import { WebhookService, type BaseWatches, type TableLookup } from './webhook.service.js';

export interface WebhookForwardingDeps {
  dataSource: DataSource;
  config: Pick<Config, 'webhookAllowedHosts' | 'webhooks' | 'quotas'>;
  secrets: SecretBox;
  cursors: SignedCursors;
  tables: TableLookup;
  watches: BaseWatches & { addDemand(demand: WatchDemand): void };
  changeIngest: { addSink(sink: ChangeSink): void };
  logger: Logger;
}

export interface WebhookForwarding {
  webhooks: WebhookService;
  webhookDeliveries: DeliveryLogService;
  webhookDispatcher: DeliveryDispatcher;
  /** The change sink registered with ingestion (tests and benchmarks feed it directly). */
  webhookSink: WebhookChangeSink;
  /** Finished deliveries older than the retention are pruned by the periodic job. */
  pruneWebhookDeliveries(): Promise<number>;
  /** Hears each delivery attempt once stored (a webhook's log changed); returns the unsubscribe. */
  onDeliveryAttempted(listener: (event: DeliveryAttempted) => void): () => void;
}

/** Builds webhook forwarding and plugs it into the audit pipeline: a watch demand and a change sink. */
export function createWebhookForwarding(deps: WebhookForwardingDeps): WebhookForwarding {
  const { dataSource, config, logger } = deps;
  const guard = new WebhookUrlGuard(config.webhookAllowedHosts);
  const webhooks = new WebhookService(dataSource, guard, deps.secrets, deps.tables, deps.watches, logger, config.quotas);
  const store = new DeliveryStore(dataSource);
  const recorder = new AttemptRecorder(dataSource, config.webhooks.disableAfterMs);
  const webhookDispatcher = new DeliveryDispatcher(store, recorder, webhooks, guard, new WebhookHttpSender(config.webhooks.timeoutMs), {
    retryScheduleMs: config.webhooks.retryScheduleMs,
    timeoutMs: config.webhooks.timeoutMs,
    concurrency: config.webhooks.concurrency,
    logger,
  });
  const wake = () => webhookDispatcher.wake();
  const deliveryCursors = deps.cursors.codec(
    'webhook deliveries nextCursor',
    SEQ_POSITION,
    'cursor is not a nextCursor of this webhook’s deliveries',
  );
  const webhookDeliveries = new DeliveryLogService(dataSource, webhooks, deliveryCursors, wake);
  deps.watches.addDemand(webhooks);
  const webhookSink = new WebhookChangeSink(
    { windowMs: config.webhooks.coalesceWindowMs, maxWaitMs: config.webhooks.coalesceMaxWaitMs },
    wake,
  );
  deps.changeIngest.addSink(webhookSink);
  return {
    webhooks,
    webhookDeliveries,
    webhookDispatcher,
    webhookSink,
    pruneWebhookDeliveries: () => store.prune(new Date(Date.now() - config.webhooks.retentionMs)),
    onDeliveryAttempted: (listener) => recorder.onRecorded(listener),
  };
}
