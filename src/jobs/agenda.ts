import { Agenda, type AgendaBackend } from 'agenda';
import type { DataSource } from 'typeorm';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { safeError } from '../logger.js';
import { countJobRuns } from '../metrics/job-metrics.js';
import type { Metrics } from '../metrics/registry.js';
import type { Services } from '../services.js';
import { PostgresJobBackend, setUpPostgresJobStore } from './backends/postgres/postgres-job-backend.js';
import { SqliteBackend } from './backends/sqlite/index.js';
import { defineAuditJobs } from './audit.jobs.js';
import { defineCountUsageJob } from './count-usage.job.js';
import { defineMirrorJobs } from './mirror.jobs.js';
import { UNIQUE_JOBS } from './unique-jobs.js';
import { AgendaUsageJobStore } from './usage-job-store.js';
import { defineWebhookDeliveryJob } from './webhook-delivery.job.js';

export interface Scheduler {
  agenda: Agenda;
  backendName: string;
  /** Reconciles the jobs with the rows, then (unless this process only plans jobs) starts running them. */
  start(): Promise<void>;
  /**
   * Lets running jobs finish up to the deadline, then stops. A job still running keeps its lock (Agenda 6.2.6):
   * another process takes it once its lock lifetime has passed.
   */
  stop(deadlineMs: number): Promise<void>;
  isReady(): Promise<boolean>;
}

/**
 * Agenda with the job store configuration asks for: MongoDB when MONGODB_URL is set (several instances share one
 * scheduler); otherwise the service's own database: our SQLite backend, or Agenda's PostgreSQL backend when
 * DATABASE_URL is PostgreSQL. All job definitions are made here.
 */
export async function createScheduler(
  config: Config,
  dataSource: DataSource,
  services: Services,
  logger: Logger,
  metrics: Metrics,
): Promise<Scheduler> {
  const { backend, close, ping } = await openBackend(config, dataSource);
  const agenda = new Agenda({
    backend,
    name: `basewatch-${process.pid}`,
    // Numbers, not strings: Agenda 6 misreads '100 milliseconds' (STACK.md).
    processEvery: config.jobs.processEveryMs,
    defaultLockLifetime: config.jobs.lockLifetimeMs,
    maxConcurrency: 20,
  });
  agenda.on('error', (error: Error) => logger.error({ err: safeError(error) }, 'scheduler error'));
  countJobRuns(agenda, metrics);

  services.usageSchedule.attach(new AgendaUsageJobStore(agenda));
  defineCountUsageJob(agenda, services.usageSchedule, logger, {
    lockLifetimeMs: config.jobs.lockLifetimeMs,
    retryDelayMs: config.jobs.usageRetryDelayMs,
    maxRetries: config.jobs.usageMaxRetries,
    concurrency: 5,
  });

  const auditJobs = defineAuditJobs(agenda, services, logger, {
    pollIntervalMs: config.audit.pollIntervalMs,
    // Short: a run left locked by a crashed process resumes within a minute. Overlapping runs are harmless (the
    // ingestion's cursor check and the writer's atomic claims), so a long run outliving its lock does no damage.
    lockLifetimeMs: Math.min(config.jobs.lockLifetimeMs, 60_000),
    ingestRetryDelayMs: Math.min(config.audit.pollIntervalMs, 30_000),
  });

  const mirrorJobs = defineMirrorJobs(agenda, services, logger, {
    lockLifetimeMs: Math.min(config.jobs.lockLifetimeMs, 60_000),
    retryDelayMs: Math.min(config.audit.pollIntervalMs, 30_000),
  });

  const webhookJob = defineWebhookDeliveryJob(agenda, services, logger, config.jobs.lockLifetimeMs);

  let started = false;
  let stopping: Promise<void> | undefined;
  return {
    agenda,
    backendName: backend.name,
    async start() {
      await agenda.ready;
      const reconciled = await services.usageSchedule.reconcile();
      logger.info({ backend: backend.name, ...reconciled }, 'usage jobs reconciled');
      await auditJobs.plan();
      await mirrorJobs.plan();
      await webhookJob.plan();
      if (config.jobs.run) {
        await auditJobs.maintainSoon();
        await agenda.start();
        started = true;
        services.webhookDispatcher.start();
      }
    },
    stop(deadlineMs) {
      stopping ??= (async () => {
        if (started) await Promise.all([agenda.drain(deadlineMs), services.webhookDispatcher.stop(deadlineMs)]);
        // Unlocks nothing after the drain: a job still running, or fetched and not yet started, keeps its lock until
        // the lock lifetime passes (Agenda 6.2.6), then another process takes it.
        await agenda.stop();
        await close();
      })();
      return stopping;
    },
    isReady: ping,
  };
}

/**
 * The job store's schema, where the store does not make it as a migration (SQLite) or idempotently on connect
 * (MongoDB's index): Agenda's PostgreSQL tables and our unique indexes. Called under the start-up lock.
 */
export async function prepareJobStore(config: Config): Promise<void> {
  if (!config.mongodbUrl && config.database.type === 'postgres') await setUpPostgresJobStore(config.database.url, UNIQUE_JOBS);
}

async function openBackend(config: Config, dataSource: DataSource) {
  if (config.mongodbUrl) {
    // Loaded only here, where it is needed: the MongoDB driver took 177 ms to load on its own (of a 2.5 s start-up).
    const { MongoBackend, MongoClient } = await import('@agendajs/mongo-backend');
    // Connected here, not by the backend: Agenda 6 does not catch a failing connect in its constructor (STACK.md).
    const client = await MongoClient.connect(config.mongodbUrl, { serverSelectionTimeoutMS: 10_000 });
    const backend: AgendaBackend = new MongoBackend({ mongo: client.db() });
    return {
      backend,
      close: () => client.close(),
      ping: async () => (await client.db().command({ ping: 1 })).ok === 1,
    };
  }
  if (config.database.type === 'postgres') {
    // The service's own PostgreSQL: jobs in Agenda's table there, woken by LISTEN/NOTIFY instead of polling alone.
    const backend = new PostgresJobBackend(config.database.url);
    await backend.connect();
    // Agenda closes a backend's own pool only when it had been started; an API-only process closes it here.
    const close = () => backend.disconnect().catch(() => undefined);
    return { backend, close, ping: async () => dataSource.isInitialized };
  }
  const backend = new SqliteBackend({ dataSource });
  await backend.connect();
  return {
    backend,
    close: async () => undefined,
    ping: async () => dataSource.isInitialized,
  };
}
