import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MirrorRestore } from '../../src/entities/index.js';
import { RestoreNotSettled } from '../../src/services/mirror/mirror-restore.service.js';
import { mirrorInput } from '../../src/services/mirror/mirror.input.js';
import { monitoringConfigInput } from '../../src/services/monitoring-config.input.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed } from '../support/service-calls.js';
import { FAST_UPSTREAM, startTestServices, type TestServices } from '../support/test-services.js';
import { seededConfig } from './mirrored-config.js';

/**
 * Which deleted records a restore keeps from others (CONTRACT §11: never creating a record twice): those it will
 * create while it runs, and after it failed those it sent without learning what became of them; a refused write frees
 * them. Service-level; the job is run by hand.
 */
describe('deleted records taken by a restore', () => {
  let t: TestServices;
  let configId: string;
  let baseId: string;
  let tableId: string;
  let emailId: string;
  let gone: string;

  const restoreOf = (recordIds: string[], dryRun = true) =>
    t.services.mirrorRestores.create(t.accountId, configId, parsed(mirrorInput.restore, { tableId, recordIds, dryRun }));

  beforeAll(async () => {
    t = await startTestServices(FAST_UPSTREAM);
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
    baseId = t.baseId(DEMO_BASES.catalog);
    configId = await seededConfig(t, baseId);
    const table = t.sandbox.store.getTable(baseId, 'Suppliers')!;
    tableId = table.id;
    emailId = table.fields.find((field) => field.name === 'Email')!.id;
    gone = [...table.records.entries()].find(([, record]) => record.cellsByFieldId[emailId] !== undefined)![0];
    t.sandbox.store.deleteRecords(baseId, tableId, [gone]);
    await t.services.changeIngest.ingest((await t.services.watches.find({ baseId }))!.id);
  });
  afterAll(() => t?.close());

  it('keeps them while it is planned, and frees them when the upstream refuses its write', async () => {
    const planned = await restoreOf([gone], false);
    expect(planned.status).toBe('planned');
    await expect(restoreOf([gone])).rejects.toMatchObject({ status: 409, code: 'conflict', message: expect.stringContaining(planned.id) });

    // The plan sends a field that is gone by the time it runs: the upstream refuses the whole batch (422).
    t.sandbox.store.deleteField(baseId, tableId, emailId);
    const failed = await t.services.mirrorRestores.run(planned.id);
    expect(failed).toMatchObject({ status: 'failed', createdRecordIds: {} });
    expect((await t.dataSource.manager.findOneByOrFail(MirrorRestore, { id: planned.id })).inFlightJson).toBeNull();

    const again = await restoreOf([gone]);
    expect(again).toMatchObject({ create: 1, skippedFieldIds: expect.arrayContaining([emailId]) });
  });

  it('keeps those a failed restore sent and never confirmed', async () => {
    const stopped = await restoreOf([gone], false);
    await t.dataSource.manager.update(
      MirrorRestore,
      { id: stopped.id },
      { status: 'failed', inFlightJson: JSON.stringify({ start: 0, count: 1, sentAt: new Date().toISOString() }) },
    );
    await expect(restoreOf([gone])).rejects.toMatchObject({ status: 409, message: expect.stringContaining(stopped.id) });
    await t.dataSource.manager.update(MirrorRestore, { id: stopped.id }, { inFlightJson: null });
    expect((await restoreOf([gone])).create).toBe(1);
  });

  it('does not name another account’s restore (only the base’s records, which the mirror shares)', async () => {
    const mine = await restoreOf([gone], false);
    const { id: otherConfig } = await t.services.monitoringConfigs.create(
      t.other.accountId,
      parsed(monitoringConfigInput.create, { baseId, monitoringBaseId: t.newLogBase(), scope: 'records_only' }),
    );
    const refused = await t.services.mirrorRestores
      .create(t.other.accountId, otherConfig, parsed(mirrorInput.restore, { tableId, recordIds: [gone], dryRun: true }))
      .then(
        () => undefined,
        (error: { status: number; message: string }) => error,
      );
    expect(refused).toMatchObject({ status: 409, message: expect.stringContaining('a restore of another account') });
    expect(refused!.message).not.toContain(mine.id);
  });

  it('waits for an interrupted batch found in part, then fails it with the batch still taken', async () => {
    const table = t.sandbox.store.getTable(baseId, 'Suppliers')!;
    const pair = [...table.records.keys()].slice(0, 2);
    t.sandbox.store.deleteRecords(baseId, tableId, pair);
    const watchId = (await t.services.watches.find({ baseId }))!.id;
    await t.services.changeIngest.ingest(watchId);
    const stopped = await restoreOf(pair, false);
    const inFlight = (sentAt: Date) => JSON.stringify({ start: 0, count: 2, sentAt: sentAt.toISOString() });
    await t.dataSource.manager.update(MirrorRestore, { id: stopped.id }, { status: 'running', inFlightJson: inFlight(new Date()) });
    // One of the two was made before the crash, as the plan sent it; the watch brings it.
    const plan = JSON.parse((await t.dataSource.manager.findOneByOrFail(MirrorRestore, { id: stopped.id })).planJson);
    const made = await t.api.call('POST', `/${baseId}/${tableId}`, { records: [{ fields: plan[0].fields }], typecast: true });
    // And someone changed it since: it is known by the values it was created with.
    await t.api.updateRecords(baseId, tableId, [{ id: made.records[0].id, fields: { [table.primaryFieldId]: 'Renamed at once' } }]);
    await t.services.changeIngest.ingest(watchId);

    // Within the settling time the rest may still come: run again later.
    await expect(t.services.mirrorRestores.run(stopped.id)).rejects.toBeInstanceOf(RestoreNotSettled);
    const longAgo = new Date(Date.now() - 2 * t.config.mirror.restoreSettleMs);
    await t.dataSource.manager.update(MirrorRestore, { id: stopped.id }, { inFlightJson: inFlight(longAgo) });
    const failed = await t.services.mirrorRestores.run(stopped.id);
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'Only 1 of the 2 records of an interrupted batch were found',
      createdRecordIds: { [plan[0].recordId]: made.records[0].id },
    });
    await expect(restoreOf(pair)).rejects.toMatchObject({ status: 409 });
  });
});
