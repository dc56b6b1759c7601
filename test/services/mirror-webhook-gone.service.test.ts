import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES } from '../support/factories.js';
import { FAST_UPSTREAM, startTestServices, type TestServices } from '../support/test-services.js';
import { seededConfig } from './mirrored-config.js';

/**
 * The upstream webhook deleted behind the service's back (CONTRACT §11: never `live` over a hole): the next poll
 * makes it again through the holder's connection, the mirror says `gap`, and a seed brings back what it missed.
 */
describe('a mirror whose upstream webhook was deleted', () => {
  let t: TestServices;
  let baseId: string;
  let configId: string;

  beforeAll(async () => {
    t = await startTestServices(FAST_UPSTREAM);
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
    baseId = t.baseId(DEMO_BASES.catalog);
    configId = await seededConfig(t, baseId);
  });
  afterAll(() => t?.close());

  it('is kept when the upstream still lists it (a 404 from elsewhere)', async () => {
    const watch = (await t.services.watches.find({ baseId }))!;
    expect(await t.services.watches.replaceGone(watch)).toBe('listed');
    expect((await t.services.watches.find({ baseId }))!.webhookId).toBe(watch.webhookId);
    expect(t.sandbox.webhooks.list(baseId).map((hook) => hook.id)).toEqual([watch.webhookId]);
    expect((await t.services.mirrorReads.state(t.accountId, configId)).status).toBe('live');
  });

  it('is re-created at the next poll, says gap, and is seeded again with the change it missed', async () => {
    const watch = (await t.services.watches.find({ baseId }))!;
    const lost = watch.webhookId;
    const table = t.sandbox.store.getBase(baseId)!.tables.find((candidate) => candidate.name === 'Suppliers')!;
    const recordId = [...table.records.keys()][0]!;
    t.sandbox.webhooks.delete(baseId, lost);
    // Made while no webhook listened: no payload will ever carry it.
    t.sandbox.store.updateRecords(baseId, table.id, [{ id: recordId, fields: { Email: 'unheard@example.com' } }]);

    await t.services.changeIngest.ingest(watch.id);
    const replaced = (await t.services.watches.find({ baseId }))!;
    expect(replaced.webhookId).not.toBe(lost);
    expect(replaced.status).toBe('active');
    expect(t.sandbox.webhooks.list(baseId).map((hook) => hook.id)).toEqual([replaced.webhookId]);
    const mirror = await t.services.mirrorReads.state(t.accountId, configId);
    expect(mirror.status).toBe('gap');

    expect(await t.services.mirrorSeeds.seed(baseId)).toBe('live');
    const emailId = table.fields.find((field) => field.name === 'Email')!.id;
    expect((await t.services.mirrorReads.record(t.accountId, configId, recordId)).fields[emailId]).toBe('unheard@example.com');
  });
});
