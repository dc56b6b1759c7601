import { AUDIT_INGEST_JOB, AUDIT_MAINTAIN_JOB, AUDIT_WRITE_JOB } from './audit.jobs.js';
import { MIRROR_RESTORE_JOB, MIRROR_SEED_JOB } from './mirror.jobs.js';
import { COUNT_USAGE_JOB } from './usage-job-store.js';

/** The jobs saved with `unique({ 'data.<key>': … })`: one job of the name per value of the key. */
export const UNIQUE_JOBS: ReadonlyArray<{ name: string; dataKey: string }> = [
  { name: COUNT_USAGE_JOB, dataKey: 'usageBaseId' },
  { name: AUDIT_INGEST_JOB, dataKey: 'watchId' },
  { name: AUDIT_WRITE_JOB, dataKey: 'configId' },
  // The one-off upkeep at start-up; the daily one of the same name is an `every()` job with no data.
  { name: AUDIT_MAINTAIN_JOB, dataKey: 'trigger' },
  { name: MIRROR_SEED_JOB, dataKey: 'baseId' },
  { name: MIRROR_RESTORE_JOB, dataKey: 'restoreId' },
];
