import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_INGEST_JOB } from '../../src/jobs/audit.jobs.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { until } from '../support/eventually.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { AUDIT_APP_ENV, logCatalogSuppliers, relaxSandboxRateLimit } from './audit-support.js';

describe('audit jobs that fail', () => {
  let app: TestApp;
  let watchId: string;

  beforeAll(async () => {
    app = await startTestApp({ ...AUDIT_APP_ENV, UPSTREAM_MAX_RETRIES: '0' });
    relaxSandboxRateLimit(app);
    const { baseId } = await logCatalogSuppliers(app, sandboxApi(app.url));
    watchId = (await app.running.services.watches.find({ baseId }))!.id;
  });
  afterAll(() => app?.close());

  const ingestJob = async () => {
    const { jobs } = await app.running.scheduler.agenda.queryJobs({ name: AUDIT_INGEST_JOB, data: { watchId } });
    expect(jobs.length).toBeLessThanOrEqual(1);
    return jobs[0];
  };

  it('are recorded by Agenda as failed, run again after the retry delay, and cleared by the next success', async () => {
    const faults = app.running.sandbox!.faults;
    faults.update({ errorRate: 1, errorStatus: 503 });
    // The poll queues an ingestion every second; reading the payloads fails.
    const failed = (await until(ingestJob, (job) => (job?.failCount ?? 0) > 0))!;
    expect(failed.failReason).toEqual(expect.any(String));
    expect(failed.failedAt).toBeInstanceOf(Date);
    expect(failed.nextRunAt).toBeInstanceOf(Date);
    faults.update({ errorRate: 0 });
    const recovered = (await until(ingestJob, (job) => !job?.failCount && job!.lastFinishedAt! > failed.failedAt!))!;
    expect(recovered.failCount ?? 0).toBe(0);
  });
});
