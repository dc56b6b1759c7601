import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorInput } from '../../src/services/mirror/mirror.input.js';
import { AUDIT_APP_ENV } from '../audit/audit-support.js';
import { until } from '../support/eventually.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';
import { MIRROR_WAIT_MS, mirroredConfig } from './mirrored-config.js';

const RECORDS = 30;
const WAIT_MS = MIRROR_WAIT_MS;
/** Three times the job's lock lifetime. */
const LATENCY_MS = 3_000;

/**
 * A restore whose requests outlast the job's lock: the job queue gives the run up as expired and starts the job
 * again while the first run still writes. Both runs must not send the same batch of creates.
 */
describe('a restore slower than its job lock', () => {
  let t: TestServices;

  beforeAll(async () => {
    t = await startTestServices({ ...AUDIT_APP_ENV, JOBS_LOCK_LIFETIME_MS: '1000' });
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
  });
  afterAll(() => t?.close());

  it(
    'creates every record exactly once',
    async () => {
      const { sandbox, services, accountId } = t;
      const baseId = t.baseId(DEMO_BASES.catalog);
      const configId = await mirroredConfig(t, baseId);
      const table = sandbox.store.getTable(baseId, 'Suppliers')!;
      const tableSize = () => table.records.size;
      const mirrored = async () =>
        (await services.mirrorReads.state(accountId, configId)).tables.find((mirror) => mirror.tableId === table.id)?.recordCount;
      await until(mirrored, (count) => count === tableSize(), WAIT_MS);
      const before = tableSize();
      const values = Array.from({ length: RECORDS }, (_, i) => ({ [table.primaryFieldId]: `Slow restore ${i}` }));
      const deletedIds = sandbox.store.createRecords(baseId, table.id, values).map((record) => record.id);
      await until(mirrored, (count) => count === before + RECORDS, WAIT_MS);
      sandbox.store.deleteRecords(baseId, table.id, deletedIds);
      await until(mirrored, (count) => count === before, WAIT_MS);

      // Each upstream answer takes longer than the job's lock lives.
      sandbox.faults.update({ latencyMs: LATENCY_MS });
      const started = await services.mirrorRestores.create(
        accountId,
        configId,
        parsed(mirrorInput.restore, { tableId: table.id, recordIds: deletedIds }),
      );
      const done = await until(
        () => services.mirrorRestores.get(accountId, configId, started.id),
        (restore) => restore.status !== 'planned' && restore.status !== 'running',
        2 * WAIT_MS,
      );
      sandbox.faults.update({ latencyMs: 0 });
      // A request sent meanwhile is answered within the latency: wait for any before counting.
      await new Promise((resolve) => setTimeout(resolve, 2 * LATENCY_MS));
      expect(done).toMatchObject({ status: 'done', progress: { done: RECORDS, total: RECORDS } });
      expect(new Set(Object.values(done.createdRecordIds)).size).toBe(RECORDS);
      expect(tableSize()).toBe(before + RECORDS);
    },
    5 * WAIT_MS,
  );
});
