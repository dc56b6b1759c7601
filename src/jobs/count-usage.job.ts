import { backoffStrategies, type Agenda } from 'agenda';
import type { Logger } from '../logger.js';
import { safeError } from '../logger.js';
import type { UsageScheduleService } from '../services/usage-schedule.service.js';
import { COUNT_USAGE_JOB, type CountUsageJobData } from './usage-job-store.js';

export interface CountUsageJobOptions {
  lockLifetimeMs: number;
  retryDelayMs: number;
  maxRetries: number;
  concurrency: number;
}

/**
 * The daily count of one base. The job plans its own next run (DST-correct, see daily-schedule.ts) instead of an
 * Agenda repeat interval; a failed count is retried with backoff, and after the last retry the job waits for the
 * next day.
 */
export function defineCountUsageJob(agenda: Agenda, schedule: UsageScheduleService, logger: Logger, options: CountUsageJobOptions): void {
  agenda.define<CountUsageJobData>(
    COUNT_USAGE_JOB,
    async (job) => {
      const { usageBaseId } = job.attrs.data;
      // Agenda clears a one-off job's next run when it starts; keep it due, so that if this process dies mid-count
      // the job runs again once its lock lifetime has passed.
      job.attrs.nextRunAt = new Date();
      await job.touch();
      try {
        const { outcome, nextRunAt } = await schedule.runScheduled(usageBaseId);
        if (outcome === 'paused') {
          logger.warn({ usageBaseId, nextRunAt }, 'scheduled usage count paused: the account’s upstream connection needs re-authorisation');
        } else {
          logger.info({ usageBaseId, outcome, nextRunAt }, 'scheduled usage count');
        }
        job.attrs.nextRunAt = nextRunAt;
      } catch (error) {
        logger.warn({ usageBaseId, err: safeError(error) }, 'scheduled usage count failed');
        job.attrs.nextRunAt = await schedule.nextRunAtOf(usageBaseId);
        throw error;
      }
    },
    {
      lockLifetime: options.lockLifetimeMs,
      concurrency: options.concurrency,
      backoff: backoffStrategies.exponential({ delay: options.retryDelayMs, factor: 4, maxRetries: options.maxRetries }),
    },
  );
}
