import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_APP_ENV, relaxSandboxRateLimit } from '../audit/audit-support.js';
import { until } from '../support/eventually.js';
import { DEMO_BASES, newLogBase, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const RECORDS = 30;
/** How long a step may take on a busy machine (an upper bound, not a measurement). */
const WAIT_MS = 60_000;
/** Three times the job's lock lifetime. */
const LATENCY_MS = 3_000;

/**
 * A restore whose requests outlast the job's lock: the job queue gives the run up as expired and starts the job
 * again while the first run still writes. Both runs must not send the same batch of creates.
 */
describe('a restore slower than its job lock', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ ...AUDIT_APP_ENV, JOBS_LOCK_LIFETIME_MS: '1000' });
    relaxSandboxRateLimit(app);
  });
  afterAll(() => app?.close());

  it(
    'creates every record exactly once',
    async () => {
      const sandbox = app.running.sandbox!;
      const baseId = await upstreamBaseId(app.http, DEMO_BASES.catalog);
      const res = await app.http('POST', '/monitoring-config', {
        body: { baseId, monitoringBaseId: newLogBase(app), scope: 'records_only' },
      });
      expect(res.status).toBe(201);
      const config = `/monitoring-config/${res.body.config.id}`;
      const table = sandbox.store.getTable(baseId, 'Suppliers')!;
      const tableSize = () => table.records.size;
      const mirrored = async () =>
        (
          (await app.http('GET', `${config}/mirror`)).body.mirror as { tables: Array<{ tableId: string; recordCount: number }> }
        ).tables.find((t) => t.tableId === table.id)?.recordCount;
      await until(mirrored, (count) => count === tableSize(), WAIT_MS);
      const before = tableSize();
      const values = Array.from({ length: RECORDS }, (_, i) => ({ [table.primaryFieldId]: `Slow restore ${i}` }));
      const deletedIds = sandbox.store.createRecords(baseId, table.id, values).map((record) => record.id);
      await until(mirrored, (count) => count === before + RECORDS, WAIT_MS);
      sandbox.store.deleteRecords(baseId, table.id, deletedIds);
      await until(mirrored, (count) => count === before, WAIT_MS);

      // Each upstream answer takes longer than the job's lock lives.
      sandbox.faults.update({ latencyMs: LATENCY_MS });
      const started = await app.http('POST', `${config}/restores`, { body: { tableId: table.id, recordIds: deletedIds } });
      expect(started.status).toBe(202);
      const done = await until(
        async () => (await app.http('GET', `${config}/restores/${started.body.restore.id}`)).body.restore,
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
