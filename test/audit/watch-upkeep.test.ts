import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeEntry } from '../../src/entities/index.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { allChanges, AUDIT_APP_ENV, eventually, relaxSandboxRateLimit } from './audit-support.js';

describe('upstream watch upkeep and retention', () => {
  let app: TestApp;
  let baseId: string;
  let configId: string;
  const lines: string[] = [];

  beforeAll(async () => {
    app = await startTestApp(
      { ...AUDIT_APP_ENV, LOG_LEVEL: 'info', AUDIT_RETENTION_DAYS: '30' },
      { write: (line: string) => void lines.push(line) },
    );
    relaxSandboxRateLimit(app);
    baseId = await upstreamBaseId(app.http, DEMO_BASES.marketing);
    const monitoringBaseId = await upstreamBaseId(app.http, DEMO_BASES.changeLog);
    configId = (await app.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId } })).body.config.id;
  });
  afterAll(() => app?.close());

  const watch = async () => (await app.running.services.watches.find({ baseId }))!;

  it('refreshes a live upstream webhook, and re-creates a lost one, logging the gap; changes keep arriving', async () => {
    const { services } = app.running;
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

    const api = sandboxApi(app.url);
    const [table] = await api.schema(baseId);
    await api.createRecords(baseId, table!.id, [{ [table!.fields.find((f) => f.id === table!.primaryFieldId)!.name]: 'After the gap' }]);
    const records = await eventually(
      () => allChanges(app.http, configId),
      (list) => list.length > 0,
    );
    expect(records.flatMap((r) => Object.values(r.after ?? {}))).toContain('After the gap');
  });

  it('reads changes by polling when no ping comes (notifications off upstream)', async () => {
    const { services } = app.running;
    const w = await watch();
    await services.upstream.setWebhookNotifications(baseId, w.webhookId, false);
    const pingedBefore = (await watch()).lastPingAt;
    const api = sandboxApi(app.url);
    const [table] = await api.schema(baseId);
    await api.createRecords(baseId, table!.id, [{ [table!.fields.find((f) => f.id === table!.primaryFieldId)!.name]: 'Polled' }]);
    const records = await eventually(
      () => allChanges(app.http, configId),
      (list) => list.some((r) => Object.values(r.after ?? {}).includes('Polled')),
    );
    expect(records.some((r) => Object.values(r.after ?? {}).includes('Polled'))).toBe(true);
    expect((await watch()).lastPingAt).toEqual(pingedBefore);
    await services.upstream.setWebhookNotifications(baseId, w.webhookId, true);
  });

  it('prunes entries older than AUDIT_RETENTION_DAYS and keeps the rest', async () => {
    const repository = app.running.dataSource.getRepository(ChangeEntry);
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
    expect(await app.running.services.changeRetention.prune()).toBe(25);
    expect(await repository.countBy({ configId })).toBe(kept);
  });
});
