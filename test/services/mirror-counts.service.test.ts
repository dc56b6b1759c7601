import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageBase, UsageSnapshot, type TableCount } from '../../src/entities/index.js';
import { monitoringConfigInput } from '../../src/services/monitoring-config.input.js';
import { DEMO_BASES } from '../support/factories.js';
import { expectedCounts } from '../support/sandbox-totals.js';
import { parsed } from '../support/service-calls.js';
import { FAST_UPSTREAM, startTestServices, type TestServices } from '../support/test-services.js';

const byTable = (tables: TableCount[]) =>
  tables
    .map(({ tableId, recordCount, fileCount, storageBytes }) => ({ tableId, recordCount, fileCount, storageBytes }))
    .sort((a, b) => a.tableId.localeCompare(b.tableId));

/**
 * Counting from the mirror (CONTRACT §11): with a live mirror a day is a query on our database after reading the
 * watch's new payloads, and it equals a full count of the same instant; a full count that differs re-seeds it.
 * Service-level: the jobs do not run; the seed and the ingestion are called directly.
 */
describe('counts from the mirror', () => {
  let t: TestServices;
  let baseId: string;
  let usageBaseId: string;

  const services = () => t.services;
  const base = async () => (await services().dataSource.manager.findOneBy(UsageBase, { id: usageBaseId }))!;
  const ingest = async () => services().changeIngest.ingest((await services().watches.find({ baseId }))!.id);
  const snapshot = (date: string) => services().dataSource.manager.findOneBy(UsageSnapshot, { usageBaseId, date });
  const products = () => t.sandbox.store.getBase(baseId)!.tables.find((table) => table.name === 'Products')!;

  beforeAll(async () => {
    t = await startTestServices(FAST_UPSTREAM);
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
    baseId = t.baseId(DEMO_BASES.catalog);
    await services().monitoringConfigs.create(
      t.accountId,
      parsed(monitoringConfigInput.create, { baseId, monitoringBaseId: t.newLogBase(), scope: 'records_only' }),
    );
    expect(await services().mirrorSeeds.seed(baseId)).toBe('live');
    usageBaseId = (await services().usageBases.create(t.accountId, { baseId })).id;
    // The full count that later days may be counted from the mirror after.
    await services().usageCounts.count(t.accountId, usageBaseId);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('counts a later day from the mirror with at most 3 upstream requests, equal to a full count', async () => {
    const table = products();
    const photos = table.fields.find((f) => f.name === 'Photos')!;
    const created = t.sandbox.store.createRecords(baseId, table.id, [
      { Name: 'Mirror count 1', Photos: [{ url: 'https://example.com/a.jpg', filename: 'a.jpg' }] },
      { Name: 'Mirror count 2' },
    ]);
    t.sandbox.store.deleteRecords(baseId, table.id, [created[1]!.id]);
    expect(photos.type).toBe('multipleAttachments');

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await services().mirrorCounts.countFromMirror(await base(), tomorrow, new Date())).toBe(true);
    const day = (await snapshot(tomorrow))!;
    expect(day.fromMirror).toBe(true);
    expect(day.apiCalls).toBeGreaterThanOrEqual(1);
    expect(day.apiCalls).toBeLessThanOrEqual(3);
    expect(byTable(JSON.parse(day.tablesJson))).toEqual(byTable(expectedCounts(t.sandbox, baseId) as TableCount[]));

    const counting = await services().usageCounting.get(t.accountId, usageBaseId);
    expect(counting.days.find((d) => d.date === tomorrow)).toMatchObject({ fromMirror: true, carriedOver: false });
  });

  it('leaves a day to a full count when the last full count is a week old or the mirror is not live', async () => {
    const inAWeek = new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10);
    expect(await services().mirrorCounts.countFromMirror(await base(), inAWeek, new Date())).toBe(false);
  });

  it('re-seeds the mirror when a full count differs from it', async () => {
    await ingest();
    // Drift the mirror behind the watch's back: one record forgotten.
    await services().dataSource.query(
      `DELETE FROM mirror_record WHERE record_id = (SELECT record_id FROM mirror_record WHERE base_id = ? AND table_id = ? AND deleted_at IS NULL LIMIT 1)`,
      [baseId, products().id],
    );
    const tables = expectedCounts(t.sandbox, baseId) as TableCount[];
    const startedAt = new Date(Date.now() + 10 * 60_000);
    expect(await services().mirrorCounts.compareWithFull(await base(), tables, startedAt)).toBe('differs');
    expect((await services().mirrors.find(baseId))!.status).toBe('gap');
    expect(await services().mirrorSeeds.seed(baseId)).toBe('live');
    expect(await services().mirrorCounts.compareWithFull(await base(), tables, new Date(Date.now() + 10 * 60_000))).toBe('same');
  });
});
