import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countLockOf } from '../support/count-lock.js';
import { createHttp } from '../support/http.js';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Two instances of the service on one SQLite file, as when a second process is started by mistake. */
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await startTestApp({ COUNT_LOCK_TTL_MS: '1000' });
  second = await startTestApp({ COUNT_LOCK_TTL_MS: '1000', DATABASE_URL: `sqlite:${join(first.dir, 'test.sqlite')}` });
});
afterAll(async () => {
  await second.close();
  await first.close();
});

const lockOf = (app: TestApp, id: string) => countLockOf(app.running.dataSource, id);

describe('the count lock', () => {
  it('holds across processes: a count running in one instance is a 409 in the other', async () => {
    const base = await trackBase(first.http, DEMO_BASES.catalog);
    const viaSecond = createHttp(second.url, first.apiKey);
    first.running.sandbox!.faults.update({ latencyMs: 200 });
    const running = first.http('POST', `/usage/bases/${base.id}/run`);
    while (!(await lockOf(second, base.id))) await new Promise((resolve) => setTimeout(resolve, 5));
    const refused = await viaSecond('POST', `/usage/bases/${base.id}/run`);
    expect(refused.status).toBe(409);
    expect((await running).status).toBe(200);
    first.running.sandbox!.faults.reset();
    expect((await viaSecond('POST', `/usage/bases/${base.id}/run`)).status).toBe(200);
  });

  it('is renewed while a long count runs, so it does not lapse under it', async () => {
    const base = await trackBase(first.http, DEMO_BASES.marketing);
    first.running.sandbox!.faults.update({ latencyMs: 700 });
    const running = first.http('POST', `/usage/bases/${base.id}/run`);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await createHttp(second.url, first.apiKey)('POST', `/usage/bases/${base.id}/run`)).status).toBe(409);
    expect((await running).status).toBe(200);
    first.running.sandbox!.faults.reset();
  });

  it('lapses when the process holding it died, so the base can be counted again', async () => {
    const base = await trackBase(first.http, DEMO_BASES.changeLog);
    const lapse = new Date(Date.now() + 400).toISOString();
    await first.running.dataSource.query("UPDATE usage_base SET count_lock_token = 'crashed-process', count_lock_until = ? WHERE id = ?", [
      lapse,
      base.id,
    ]);
    expect((await first.http('POST', `/usage/bases/${base.id}/run`)).status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await first.http('POST', `/usage/bases/${base.id}/run`)).status).toBe(200);
    expect(await lockOf(first, base.id)).toBeNull();
  });
});
