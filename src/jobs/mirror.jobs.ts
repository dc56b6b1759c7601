import type { Agenda, BackoffStrategy } from 'agenda';
import type { Logger } from '../logger.js';
import { safeError } from '../logger.js';
import type { Services } from '../services.js';
import { RestoreNotSettled } from '../services/mirror/mirror-restore.service.js';
import { saveUnique } from './unique-job.js';

export const MIRROR_SEED_JOB = 'mirror.seed';
export const MIRROR_RESTORE_JOB = 'mirror.restore';

interface SeedData {
  baseId: string;
}
interface RestoreData {
  restoreId: string;
}

export interface MirrorJobOptions {
  lockLifetimeMs: number;
  /** Before a failed seed is tried again, and before one whose base is not watched (yet) looks again. */
  retryDelayMs: number;
}

/**
 * `mirror.seed` (one per base): a full read of the base into its mirror. Asked for by a new mirror, a mirror in
 * `gap` and the daily reconcile; a seed overtaken by a gap runs again at once.
 * `mirror.restore` (one per restore): writes a planned restore; a run cut off by a crash is taken up again.
 */
export function defineMirrorJobs(agenda: Agenda, services: Services, logger: Logger, options: MirrorJobOptions) {
  const retry: BackoffStrategy = () => options.retryDelayMs;
  const enqueueSeed = (baseId: string, at = new Date()) => saveUnique<SeedData>(agenda, MIRROR_SEED_JOB, { baseId }, at);
  services.mirrors.onSeedNeeded((baseId) => enqueueSeed(baseId));

  agenda.define<SeedData>(
    MIRROR_SEED_JOB,
    async (job) => {
      const { baseId } = job.attrs.data;
      // Due again until it completes: a process killed mid-read leaves a job another one takes.
      job.attrs.nextRunAt = new Date();
      await job.touch();
      try {
        const outcome = await services.mirrorSeeds.seed(baseId, () => job.touch().then(() => undefined));
        if (outcome === 'gap') job.attrs.nextRunAt = new Date();
        else if (outcome === 'not-watched') job.attrs.nextRunAt = new Date(Date.now() + options.retryDelayMs);
        else job.attrs.nextRunAt = null;
      } catch (error) {
        logger.warn({ err: safeError(error), baseId }, 'mirror seed failed; will retry');
        throw error;
      }
    },
    { lockLifetime: options.lockLifetimeMs, concurrency: 2, backoff: retry },
  );

  services.mirrorRestores.onRunNeeded((restoreId) => saveUnique<RestoreData>(agenda, MIRROR_RESTORE_JOB, { restoreId }, new Date()));
  agenda.define<RestoreData>(
    MIRROR_RESTORE_JOB,
    async (job) => {
      const { restoreId } = job.attrs.data;
      job.attrs.nextRunAt = new Date();
      await job.touch();
      try {
        const restore = await services.mirrorRestores.run(restoreId, () => job.touch().then(() => undefined));
        job.attrs.nextRunAt = null;
        if (restore) logger.info({ restoreId, status: restore.status, ...restore.progress }, 'restore ran');
      } catch (error) {
        if (error instanceof RestoreNotSettled) {
          job.attrs.nextRunAt = error.retryAt;
          return;
        }
        logger.warn({ err: safeError(error), restoreId }, 'restore failed; will retry');
        throw error;
      }
    },
    { lockLifetime: options.lockLifetimeMs, concurrency: 2, backoff: retry },
  );

  return {
    async plan(): Promise<void> {
      const { ensured, released } = await services.mirrors.reconcile();
      if (ensured || released) logger.info({ ensured, released }, 'mirrors reconciled');
    },
  };
}
