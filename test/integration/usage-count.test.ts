import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countLockOf } from '../support/count-lock.js';
import { until } from '../support/eventually.js';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** POST /usage/bases/{id}/run over HTTP: its answer, its 502, its 409 and a 404. The counting rules: test/services/usage-count.service.test.ts. */

let app: TestApp;
const sandbox = () => app.running.sandbox!;

beforeAll(async () => {
  app = await startTestApp();
});
afterEach(() => sandbox().faults.reset());
afterAll(() => app.close());

describe('POST /usage/bases/{id}/run', () => {
  it('answers the totals of the count in the documented shape, and the day is the latest snapshot', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.catalog);
    const res = await http('POST', `/usage/bases/${base.id}/run`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      tablesProcessed: 3,
      totalRecords: 410,
      totalAttachmentBytes: expect.any(Number),
      totalFileCount: expect.any(Number),
      snapshotDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    const latest = await http('GET', `/usage/bases/${base.id}/snapshots/latest`);
    expect(latest.body.day).toMatchObject({
      date: res.body.snapshotDate,
      totals: {
        recordCount: res.body.totalRecords,
        storageBytes: res.body.totalAttachmentBytes,
        fileCount: res.body.totalFileCount,
        tableCount: 3,
      },
    });
  });

  it('answers 502 upstream_error when the upstream stays down, without the upstream’s credentials', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.marketing);
    sandbox().faults.update({ errorRate: 1, errorStatus: 503 });
    const res = await http('POST', `/usage/bases/${base.id}/run`);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ message: expect.any(String), code: 'upstream_error' });
    expect(res.text).not.toMatch(/sandbox-token|Bearer/);
  });

  it('answers 409 conflict while a count of the same base runs, and counts again once it ended', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.catalog);
    sandbox().faults.update({ latencyMs: 150 });
    const first = http('POST', `/usage/bases/${base.id}/run`);
    await until(
      () => countLockOf(app.running.dataSource, base.id),
      (lock) => lock !== null,
    );
    const second = await http('POST', `/usage/bases/${base.id}/run`);
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      message: 'A count of this base is already running (a count cut off by a crash or kill holds it for at most 60 s)',
      code: 'conflict',
    });
    expect((await first).status).toBe(200);
    sandbox().faults.reset();
    expect((await http('POST', `/usage/bases/${base.id}/run`)).status).toBe(200);
  });

  it('answers 404 when the path names the upstream base id, saying so', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.catalog);
    const res = await http('POST', `/usage/bases/${base.baseId}/run`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      message: `Usage base not found: ${base.baseId} is an upstream base id; this path takes the service's id (the UUID in "id")`,
      code: 'not_found',
    });
  });
});
