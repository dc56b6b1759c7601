import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { AttemptOutcome } from '../services/webhooks/retry-policy.js';
import type { UpstreamAttempt } from '../upstream/types.js';
import { countQueues } from '../repositories/queue-depth.js';
import type { RouteLabel } from './route-label.js';
import { upstreamOperationOf } from './upstream-operation.js';

export type JobOutcome = 'success' | 'failure';

/**
 * This process's metrics, in a registry of its own (not prom-client's global one), so that several apps in one
 * process count apart. Counters and histograms are summed across workers by prom-client's AggregatorRegistry;
 * each gauge says how it aggregates.
 */
export interface Metrics {
  registry: Registry;
  requestServed(label: RouteLabel, method: string, status: number, seconds: number): void;
  upstreamAttempted(attempt: UpstreamAttempt): void;
  jobFinished(job: string, outcome: JobOutcome): void;
  webhookAttempted(outcome: AttemptOutcome): void;
}

/** Seconds; the service's pages answer in milliseconds, counts and large exports take seconds. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const WEBHOOK_OUTCOMES: Record<AttemptOutcome['kind'], string> = {
  succeeded: 'delivered',
  retry: 'retry_scheduled',
  failed: 'failed',
  gone: 'gone',
};

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function createMetrics(dataSource: DataSource): Metrics {
  const registry = new Registry();
  const registers = [registry];
  // Process metrics (CPU, memory, event loop, GC); prom-client gives each the right aggregation across workers.
  collectDefaultMetrics({ register: registry, prefix: 'basewatch_' });

  const http = new Histogram({
    name: 'basewatch_http_request_duration_seconds',
    help: 'HTTP requests answered, by API, route template, method and status code; the _count is the request rate',
    labelNames: ['api', 'route', 'method', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const upstream = new Counter({
    name: 'basewatch_upstream_requests_total',
    help: 'Requests sent to the upstream platform (every attempt, retries included), by operation and outcome (ok, rate_limited = 429, error)',
    labelNames: ['operation', 'outcome'] as const,
    registers,
  });
  const jobs = new Counter({
    name: 'basewatch_job_runs_total',
    help: 'Scheduler job runs finished in this process, by job name and outcome (success, failure)',
    labelNames: ['job', 'outcome'] as const,
    registers,
  });
  const webhooks = new Counter({
    name: 'basewatch_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts, by outcome (delivered, retry_scheduled, failed, gone = the receiver answered 410)',
    labelNames: ['outcome'] as const,
    registers,
  });
  new Gauge({
    name: 'basewatch_queue_depth',
    help: 'Rows waiting in the shared database: audit_outbox (changes to write to Changes tables), webhook_deliveries (pending deliveries)',
    labelNames: ['queue'] as const,
    registers,
    // Every worker counts the same database: one figure, not the sum of N copies of it.
    aggregator: 'max',
    async collect() {
      try {
        const depths = await countQueues(dataSource);
        this.set({ queue: 'audit_outbox' }, depths.auditOutbox);
        this.set({ queue: 'webhook_deliveries' }, depths.webhookDeliveries);
      } catch {
        // Database unreachable (or closed while shutting down): no figure rather than a stale one.
        this.reset();
      }
    },
  });

  return {
    registry,
    requestServed: ({ api, route }, method, status, seconds) =>
      http.observe({ api, route, method: KNOWN_METHODS.has(method) ? method : 'OTHER', status: String(status) }, seconds),
    upstreamAttempted: ({ method, path, outcome }) => upstream.inc({ operation: upstreamOperationOf(method, path), outcome }),
    jobFinished: (job, outcome) => jobs.inc({ job, outcome }),
    webhookAttempted: (outcome) => webhooks.inc({ outcome: WEBHOOK_OUTCOMES[outcome.kind] }),
  };
}
