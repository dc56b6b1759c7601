import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countLockOf } from '../support/count-lock.js';
import { DEMO_BASES } from '../support/factories.js';
import { refusal } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';

/** Two instances of the services on one SQLite file, as when a second process is started by mistake. */
let first: TestServices;
let second: TestServices;
beforeAll(async () => {
  first = await startTestServices({ COUNT_LOCK_TTL_MS: '1000' });
  second = await startTestServices({ COUNT_LOCK_TTL_MS: '1000', DATABASE_URL: `sqlite:${join(first.dir, 'test.sqlite')}` });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

const lockOf = (t: TestServices, id: string) => countLockOf(t.dataSource, id);
const track = (name: string) => first.services.usageBases.create(first.accountId, { baseId: first.baseId(name) });
/** A count of the first account's base, by one instance or the other. */
const count = (t: TestServices, id: string) => t.services.usageCounts.count(first.accountId, id);

describe('the count lock', () => {
  it('holds across processes: a count running in one instance is a conflict in the other', async () => {
    const base = await track(DEMO_BASES.catalog);
    first.sandbox.faults.update({ latencyMs: 200 });
    const running = count(first, base.id);
    while (!(await lockOf(second, base.id))) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await refusal(() => count(second, base.id))).toBe('conflict');
    expect((await running).status).toBe('success');
    first.sandbox.faults.reset();
    expect(await refusal(() => count(second, base.id))).toBe('accepted');
  });

  it('is renewed while a long count runs, so it does not lapse under it', async () => {
    const base = await track(DEMO_BASES.marketing);
    first.sandbox.faults.update({ latencyMs: 700 });
    const running = count(first, base.id);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await refusal(() => count(second, base.id))).toBe('conflict');
    expect((await running).status).toBe('success');
    first.sandbox.faults.reset();
  });

  it('lapses when the process holding it died, so the base can be counted again', async () => {
    const base = await track(DEMO_BASES.changeLog);
    const lapse = new Date(Date.now() + 400).toISOString();
    await first.dataSource.query("UPDATE usage_base SET count_lock_token = 'crashed-process', count_lock_until = ? WHERE id = ?", [
      lapse,
      base.id,
    ]);
    expect(await refusal(() => count(first, base.id))).toBe('conflict');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await refusal(() => count(first, base.id))).toBe('accepted');
    expect(await lockOf(first, base.id)).toBeNull();
  });
});
