import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MirrorRestore } from '../../src/entities/index.js';
import { RestoreNotSettled } from '../../src/services/mirror/mirror-restore.service.js';
import { mirrorInput } from '../../src/services/mirror/mirror.input.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed } from '../support/service-calls.js';
import { FAST_UPSTREAM, startTestServices, type TestServices } from '../support/test-services.js';
import { seededConfig } from './mirrored-config.js';

const SETTLE_MS = 1_000;

/**
 * A batch of creates slower than half the settling time is given up and left in flight (CONTRACT §11: never a record
 * twice): no request of a run may land after another run could conclude the batch was not made and send it again.
 */
describe('a restore whose batch of creates outlasts its deadline', () => {
  let t: TestServices;

  beforeAll(async () => {
    t = await startTestServices({ ...FAST_UPSTREAM, MIRROR_RESTORE_SETTLE_MS: String(SETTLE_MS) });
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
  });
  afterAll(() => t?.close());

  it('leaves the batch in flight, and a later run makes each record once', async () => {
    const baseId = t.baseId(DEMO_BASES.catalog);
    const configId = await seededConfig(t, baseId);
    const table = t.sandbox.store.getTable(baseId, 'Suppliers')!;
    const gone = [...table.records.keys()].slice(0, 3);
    t.sandbox.store.deleteRecords(baseId, table.id, gone);
    const watchId = (await t.services.watches.find({ baseId }))!.id;
    await t.services.changeIngest.ingest(watchId);
    const restore = await t.services.mirrorRestores.create(
      t.accountId,
      configId,
      parsed(mirrorInput.restore, { tableId: table.id, recordIds: gone }),
    );
    const before = table.records.size;

    // The upstream answers after 3 s; the run gives the batch up after 0.5 s.
    t.sandbox.faults.update({ latencyMs: 3_000 });
    const started = Date.now();
    await expect(t.services.mirrorRestores.run(restore.id)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_500);
    const row = await t.dataSource.manager.findOneByOrFail(MirrorRestore, { id: restore.id });
    expect(row).toMatchObject({ status: 'running', done: 0 });
    expect(row.inFlightJson).not.toBeNull();

    // Whatever became of it upstream, the next runs account for it before sending anything again.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    t.sandbox.faults.update({ latencyMs: 0 });
    let done: Awaited<ReturnType<typeof t.services.mirrorRestores.run>> = null;
    for (let attempt = 0; attempt < 10 && done?.status !== 'done'; attempt++) {
      done = await t.services.mirrorRestores.run(restore.id).catch(async (error: unknown) => {
        if (!(error instanceof RestoreNotSettled)) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, error.retryAt.getTime() - Date.now())));
        return null;
      });
    }
    expect(done).toMatchObject({ status: 'done', progress: { done: 3, total: 3 } });
    expect(table.records.size).toBe(before + 3);
    expect(new Set(Object.values(done!.createdRecordIds)).size).toBe(3);
  }, 30_000);
});
