import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeEntry } from '../../src/entities/index.js';
import { DEMO_BASES } from '../support/factories.js';
import { startTestServices, type TestServices } from '../support/test-services.js';
import { afterValues, allChanges, runPipeline } from './audit-flow.js';

/**
 * Upstream watch upkeep (UpstreamWatchService.maintain) and the change log's retention (ChangeRetentionService),
 * without HTTP. Reading changes by the poll job when no ping comes: test/audit/watch-upkeep.test.ts.
 */
describe('upstream watch upkeep and retention', () => {
  let t: TestServices;
  let baseId: string;
  let configId: string;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await startTestServices(
      { LOG_LEVEL: 'info', AUDIT_RETENTION_DAYS: '30' },
      { logStream: { write: (line: string) => void lines.push(line) } },
    );
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
    baseId = t.baseId(DEMO_BASES.marketing);
    const monitoringBaseId = t.baseId(DEMO_BASES.changeLog);
    configId = (await t.services.monitoringConfigs.create(t.accountId, { baseId, monitoringBaseId })).id;
  });
  afterAll(() => t?.close());

  const watch = async () => (await t.services.watches.find({ baseId }))!;

  it('refreshes a live upstream webhook, and re-creates a lost one, logging the gap; changes keep arriving', async () => {
    const { services } = t;
    const first = await watch();
    const refreshed = await services.watches.maintain();
    expect(refreshed).toEqual({ refreshed: 1, recreated: 0 });
    expect((await watch()).expiresAt!.getTime()).toBeGreaterThanOrEqual(first.expiresAt!.getTime());

    await services.upstream.deleteWebhook(baseId, first.webhookId);
    expect(await services.watches.maintain()).toEqual({ refreshed: 0, recreated: 1 });
    const second = await watch();
    expect(second.webhookId).not.toBe(first.webhookId);
    expect(second.payloadCursor).toBe(1);
    expect((await services.upstream.listWebhooks(baseId)).map((h) => h.id)).toEqual([second.webhookId]);
    const gap = lines.map((l) => JSON.parse(l)).find((l) => l.msg?.startsWith('upstream watch re-created'));
    expect(gap).toMatchObject({ level: 40, baseId, oldWebhookId: first.webhookId, webhookId: second.webhookId });

    const [table] = t.sandbox.store.getBase(baseId)!.tables;
    t.sandbox.store.createRecords(baseId, table!.id, [
      { [table!.fields.find((f) => f.id === table!.primaryFieldId)!.name]: 'After the gap' },
    ]);
    await runPipeline(t);
    const records = await allChanges(t, configId);
    expect(records.length).toBeGreaterThan(0);
    expect(afterValues(records)).toContain('After the gap');
  });

  it('prunes entries older than AUDIT_RETENTION_DAYS and keeps the rest', async () => {
    const repository = t.dataSource.getRepository(ChangeEntry);
    const kept = await repository.countBy({ configId });
    const old = new Date(Date.now() - 31 * 86_400_000);
    const row = (i: number) => ({
      configId,
      occurredAt: old,
      eventType: 'record_delete',
      kind: 'record',
      tableId: 'tblOLD0000000000a',
      tableName: 'Old',
      recordId: `recOLD00000000${String(i).padStart(3, '0')}`,
      fieldIds: '[]',
      source: 'client',
      userEmail: null,
      userName: null,
      beforeJson: null,
      afterJson: null,
      monitoringRecordId: 'recALREADYWRITTEN',
      position: `old:${i}`,
      loggedAt: old,
    });
    await repository.insert(Array.from({ length: 25 }, (_, i) => row(i)));
    expect(await t.services.changeRetention.prune()).toBe(25);
    expect(await repository.countBy({ configId })).toBe(kept);
  });
});
