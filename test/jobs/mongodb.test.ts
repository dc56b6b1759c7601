import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { createHttp } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { AgendaUsageJobStore } from '../../src/jobs/usage-job-store.js';

/**
 * The production job store. No MongoDB server can be installed on the development machines, so this runs only
 * where MONGODB_URL names one (e.g. MONGODB_URL=mongodb://127.0.0.1:27017/basewatch_test npm test).
 */
const MONGODB_URL = process.env.MONGODB_URL;

describe.skipIf(!MONGODB_URL)('usage jobs on MongoDB', () => {
  const env = { MONGODB_URL: MONGODB_URL ?? '', SCHEDULER_RUN_JOBS: 'true', JOBS_PROCESS_EVERY_MS: '100', USAGE_SPREAD_SECONDS: '0' };
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp(env);
    second = await startTestApp(env);
    await first.running.scheduler.agenda.purge();
  });
  afterAll(async () => {
    await first?.running.scheduler.agenda.purge();
    await second?.close();
    await first?.close();
  });

  it('keeps one job per base, and two instances sharing MongoDB count a due base once', async () => {
    expect(first.running.scheduler.backendName).toMatch(/mongo/i);
    const base = await trackBase(first.http, DEMO_BASES.catalog, { scheduledHour: 8 });
    const jobs = new AgendaUsageJobStore(first.running.scheduler.agenda);
    expect((await jobs.all()).has(base.id)).toBe(true);
    await jobs.set(base.id, new Date());
    const deadline = Date.now() + 20_000;
    while ((await jobs.nextRunAt(base.id))!.getTime() <= Date.now() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const requests = (app: TestApp) => app.running.sandbox!.stats.byBase.get(base.baseId)?.requests ?? 0;
    expect(requests(first) + requests(second)).toBe(1 + 3 + 1 + 2);
    const schedule = await createHttp(first.url, first.apiKey)('GET', `/usage/bases/${base.id}/schedule`);
    expect(schedule.body.lastRun.status).toBe('ok');
  }, 60_000);
});

if (!MONGODB_URL) {
  describe('usage jobs on MongoDB', () => {
    it.skip('skipped: MONGODB_URL is not set (no MongoDB server on this machine)', () => undefined);
  });
}
