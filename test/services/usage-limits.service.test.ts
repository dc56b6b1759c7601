import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageBaseInput } from '../../src/services/usage-base.input.js';
import { usageLimitsInput } from '../../src/services/usage-limits/usage-limits.input.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed, refusal } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';

/** A tracked base's limits and thresholds (UsageLimitsService), without HTTP. */

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices();
});
afterAll(() => t?.close());

const GiB = 1024 ** 3;

const track = (name: string) => t.services.usageBases.create(t.accountId, parsed(usageBaseInput.create, { baseId: t.baseId(name) }));
const put = (id: string, body: Record<string, unknown>, accountId = t.accountId) =>
  t.services.usageLimits.update(accountId, id, parsed(usageLimitsInput.update, body));

describe('UsageLimitsService', () => {
  it('starts without limits, takes a plan, numbers of its own and thresholds, and clears', async () => {
    const base = await track(DEMO_BASES.catalog);
    const { usageLimits } = t.services;
    expect(await usageLimits.get(t.accountId, base.id)).toEqual({
      plan: null,
      recordLimit: null,
      storageLimitBytes: null,
      thresholds: [80, 95, 100],
    });

    expect(await put(base.id, { plan: 'team' })).toEqual({
      plan: 'team',
      recordLimit: 50_000,
      storageLimitBytes: 20 * GiB,
      thresholds: [80, 95, 100],
    });

    // A number of its own makes the plan custom; the other limit and the thresholds stay.
    const custom = await put(base.id, { recordLimit: 1_234, thresholds: [95, 50] });
    expect(custom).toEqual({ plan: 'custom', recordLimit: 1_234, storageLimitBytes: 20 * GiB, thresholds: [50, 95] });
    expect(await usageLimits.get(t.accountId, base.id)).toEqual(custom);

    expect(await put(base.id, { plan: null })).toEqual({ plan: null, recordLimit: null, storageLimitBytes: null, thresholds: [50, 95] });
    await t.services.usageBases.remove(t.accountId, base.id);
    expect(await refusal(() => usageLimits.get(t.accountId, base.id))).toBe('not_found');
  });

  it('refuses what does not make sense as invalid_request, and another account’s base as not_found', async () => {
    const base = await track(DEMO_BASES.marketing);
    for (const body of [
      { plan: 'gold' },
      { plan: 'team', recordLimit: 10 },
      { thresholds: [] },
      { thresholds: [80, 80] },
      { thresholds: [0] },
      { recordLimit: 0 },
      { storageLimitBytes: 1.5 },
      { planName: 'team' },
    ]) {
      expect(await refusal(() => put(base.id, body)), JSON.stringify(body)).toBe('invalid_request');
    }
    expect(await refusal(() => t.services.usageLimits.get(t.other.accountId, base.id))).toBe('not_found');
    expect(await refusal(() => put(base.id, { plan: 'free' }, t.other.accountId))).toBe('not_found');
    expect((await t.services.usageLimits.get(t.accountId, base.id)).plan).toBeNull();
  });
});
