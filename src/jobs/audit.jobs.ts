import type { Agenda, BackoffStrategy, Job } from 'agenda';
import type { Logger } from '../logger.js';
import { isAppError } from '../errors.js';
import { safeError } from '../logger.js';
import { saveUnique } from './unique-job.js';
import type { Services } from '../services.js';

export const AUDIT_INGEST_JOB = 'audit.ingest';
export const AUDIT_WRITE_JOB = 'audit.write';
export const AUDIT_POLL_JOB = 'audit.poll';
export const AUDIT_MAINTAIN_JOB = 'audit.maintain';

interface IngestData {
  watchId: string;
}
interface WriteData {
  configId: string;
}

export interface AuditJobOptions {
  pollIntervalMs: number;
  lockLifetimeMs: number;
  /** Delay before a failed ingestion is tried again (the poll also covers it). */
  ingestRetryDelayMs: number;
}

const DAY_MS = 86_400_000;

/**
 * The audit pipeline's jobs, each a thin call into a service:
 * - `audit.ingest` (one per watch): read new payloads into entries, outbox rows and deliveries;
 * - `audit.write` (one per config): drain the Changes-table outbox, then wait for its next retry;
 * - `audit.poll` (every AUDIT_POLL_INTERVAL_SECONDS): queue both for everything, covering lost pings and
 *   deployments the upstream cannot ping;
 * - `audit.maintain` (daily, and once at the start of a process that runs jobs): check every config's bases and
 *   Changes table upstream, refresh or re-create upstream webhooks, prune old entries; plan the mirrors and prune their
 *   old versions.
 */
export function defineAuditJobs(agenda: Agenda, services: Services, logger: Logger, options: AuditJobOptions) {
  // A failure is thrown to Agenda, which records it on the job (failCount, failReason, failedAt) and runs it again
  // after this delay, without end: the upstream or the Changes table coming back is what ends it.
  const retryEvery: BackoffStrategy = () => options.ingestRetryDelayMs;
  const enqueueIngest = (watchId: string, at = new Date()) => saveUnique<IngestData>(agenda, AUDIT_INGEST_JOB, { watchId }, at);
  const enqueueWrite = (configId: string, at = new Date()) => saveUnique<WriteData>(agenda, AUDIT_WRITE_JOB, { configId }, at);

  services.watches.onPing((watch) => enqueueIngest(watch.id));
  services.changeIngest.onEntriesLogged((configId) => {
    enqueueWrite(configId).catch((error) => logger.warn({ err: safeError(error), configId }, 'could not queue a changes write'));
  });

  agenda.define<IngestData>(
    AUDIT_INGEST_JOB,
    async (job) => {
      const { watchId } = job.attrs.data;
      const startedAt = new Date();
      await keepDue(job);
      try {
        const result = await services.changeIngest.ingest(watchId);
        if (result.payloads) logger.info({ watchId, ...result }, 'upstream changes ingested');
        const watch = await services.watches.findById(watchId);
        // A ping that arrived while this run was reading: read once more.
        job.attrs.nextRunAt = watch?.lastPingAt && watch.lastPingAt >= startedAt ? new Date() : null;
      } catch (error) {
        if (isPausedAccount(error)) {
          logger.info({ watchId }, 'ingestion paused: the account’s upstream connection needs re-authorisation');
          job.attrs.nextRunAt = null;
          return;
        }
        logger.warn({ err: safeError(error), watchId }, 'ingestion failed; will retry');
        throw error;
      }
    },
    { lockLifetime: options.lockLifetimeMs, concurrency: 5, backoff: retryEvery },
  );

  agenda.define<WriteData>(
    AUDIT_WRITE_JOB,
    async (job) => {
      const { configId } = job.attrs.data;
      await keepDue(job);
      try {
        const { written, retryAt } = await services.changeWriter.drain(configId);
        if (written) logger.info({ configId, written }, 'changes table rows written');
        job.attrs.nextRunAt = retryAt;
      } catch (error) {
        if (isPausedAccount(error)) {
          logger.info({ configId }, 'changes table writes paused: the account’s upstream connection needs re-authorisation');
          job.attrs.nextRunAt = null;
          return;
        }
        logger.warn({ err: safeError(error), configId }, 'changes table write failed; will retry');
        throw error;
      }
    },
    { lockLifetime: options.lockLifetimeMs, concurrency: 5, backoff: retryEvery },
  );

  // Every watch is read (one whose holder cannot reach the upstream moves to another account's connection), but
  // Changes-table writes of accounts whose connection needs re-authorisation wait until they reconnect.
  agenda.define(AUDIT_POLL_JOB, async () => {
    const reachable = memoize((accountId: string) => services.upstreamAccess.canReach(accountId));
    for (const watch of await services.watches.listAll()) await enqueueIngest(watch.id);
    for (const { configId, accountId, dueAt } of await services.changeWriter.pending()) {
      if (await reachable(accountId)) await enqueueWrite(configId, dueAt);
    }
  });

  agenda.define(
    AUDIT_MAINTAIN_JOB,
    async () => {
      const configs = await services.configHealth.checkAll();
      // A watch that a release in another process removed while a new demand appeared is made again here.
      const rewatched = await services.watches.reconcile();
      const upkeep = await services.watches.maintain();
      const pruned = await services.changeRetention.prune();
      const mirrors = await services.mirrors.reconcile();
      const versionsFolded = await services.mirrorRetention.prune();
      logger.info({ configs, rewatched, ...upkeep, pruned, mirrors, versionsFolded }, 'audit upkeep');
    },
    { lockLifetime: options.lockLifetimeMs, concurrency: 1 },
  );

  return {
    /** Start-up: every needed base watched, the recurring jobs planned. */
    async plan(): Promise<void> {
      const created = await services.watches.reconcile();
      if (created) logger.info({ created }, 'upstream watches reconciled');
      await agenda.every(options.pollIntervalMs, AUDIT_POLL_JOB, {}, { skipImmediate: false });
      await agenda.every(DAY_MS, AUDIT_MAINTAIN_JOB, {}, { skipImmediate: true });
    },
    /**
     * A process that runs jobs also does the upkeep once at start: what went missing upstream while it was down
     * shows at once, not a day later. One reused job row (unique), not a new one per start.
     */
    async maintainSoon(): Promise<void> {
      await saveUnique(agenda, AUDIT_MAINTAIN_JOB, { trigger: 'start-up' }, new Date());
    },
  };
}

/** Agenda clears a one-off job's next run when it starts; keep it due so a crash mid-run leads to a re-run. */
async function keepDue(job: Job<IngestData> | Job<WriteData>): Promise<void> {
  job.attrs.nextRunAt = new Date();
  await job.touch();
}

const isPausedAccount = (error: unknown) => isAppError(error) && error.code === 'upstream_not_connected';

/** One look-up per key within one run of a job. */
function memoize<T>(lookup: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const known = new Map<string, Promise<T>>();
  return (key) => {
    let value = known.get(key);
    if (!value) {
      value = lookup(key);
      known.set(key, value);
    }
    return value;
  };
}
