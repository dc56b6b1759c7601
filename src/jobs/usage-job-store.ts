import type { Agenda } from 'agenda';
import type { UsageJobStore } from '../services/usage-schedule.service.js';

export const COUNT_USAGE_JOB = 'usage.count';

export interface CountUsageJobData {
  usageBaseId: string;
}

/** The daily jobs as Agenda jobs: one `usage.count` job per base, unique by `data.usageBaseId`. */
export class AgendaUsageJobStore implements UsageJobStore {
  constructor(private readonly agenda: Agenda) {}

  async set(usageBaseId: string, runAt: Date): Promise<void> {
    const job = this.agenda.create<CountUsageJobData>(COUNT_USAGE_JOB, { usageBaseId });
    job.unique({ 'data.usageBaseId': usageBaseId });
    job.schedule(runAt);
    await job.save();
  }

  async remove(usageBaseIds: string[]): Promise<void> {
    for (const usageBaseId of usageBaseIds) {
      await this.agenda.cancel({ name: COUNT_USAGE_JOB, data: { usageBaseId } });
    }
  }

  async nextRunAt(usageBaseId: string): Promise<Date | null> {
    const { jobs } = await this.agenda.queryJobs({ name: COUNT_USAGE_JOB, data: { usageBaseId }, limit: 1 });
    return toDate(jobs[0]?.nextRunAt);
  }

  async all(): Promise<Map<string, Date | null>> {
    const { jobs } = await this.agenda.queryJobs({ name: COUNT_USAGE_JOB });
    const planned = new Map<string, Date | null>();
    for (const job of jobs) {
      const data = job.data as Partial<CountUsageJobData> | undefined;
      if (data?.usageBaseId) planned.set(data.usageBaseId, toDate(job.nextRunAt));
    }
    return planned;
  }
}

/** Backends hand instants back as Date or (from JSON) as ISO text. */
function toDate(value: Date | string | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value : new Date(value);
}
