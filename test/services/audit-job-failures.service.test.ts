import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_INGEST_JOB } from '../../src/jobs/audit.jobs.js';
import { monitoringConfigInput } from '../../src/services/monitoring-config.input.js';
import { AUDIT_APP_ENV } from '../audit/audit-support.js';
import { until } from '../support/eventually.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';

/** Jobs rethrow what fails, so that Agenda records it (issue 24, point 7). */
describe('audit jobs that fail', () => {
  let t: TestServices;
  let watchId: string;

  beforeAll(async () => {
    t = await startTestServices({ ...AUDIT_APP_ENV, UPSTREAM_MAX_RETRIES: '0' });
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
    const baseId = t.baseId(DEMO_BASES.catalog);
    const input = parsed(monitoringConfigInput.create, { baseId, monitoringBaseId: t.newLogBase(), scope: 'records_only' });
    await t.services.monitoringConfigs.create(t.accountId, input);
    watchId = (await t.services.watches.find({ baseId }))!.id;
  });
  afterAll(() => t?.close());

  const ingestJob = async () => {
    const { jobs } = await t.scheduler.agenda.queryJobs({ name: AUDIT_INGEST_JOB, data: { watchId } });
    expect(jobs.length).toBeLessThanOrEqual(1);
    return jobs[0];
  };

  it('are recorded by Agenda as failed, run again after the retry delay, and cleared by the next success', async () => {
    const { faults } = t.sandbox;
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
