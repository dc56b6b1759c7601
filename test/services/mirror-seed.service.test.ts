import { beforeAll, describe, expect, it } from 'vitest';
import { runSql } from '../../src/repositories/run-sql.js';
import { monitoringConfigInput } from '../../src/services/monitoring-config.input.js';
import { until } from '../support/eventually.js';
import { expectedCounts } from '../support/sandbox-totals.js';
import { parsed } from '../support/service-calls.js';
import { FAST_UPSTREAM, serviceDatabases, servicesOn } from '../support/test-services.js';

/** Each upstream answer's delay while the second seed reads: long enough for the changes to arrive meanwhile. */
const LATENCY_MS = 300;

/**
 * A seed over changes that arrive while it reads (ARCHITECTURE flow "mirror"): they wait as pending and are applied
 * over the read when it completes, and each record's files are counted as its page arrives, again for a table whose
 * attachment fields changed meanwhile. Service-level: the seed and the ingestion are called directly.
 */
for (const { name, database } of await serviceDatabases()) {
  describe(`a mirror seed on ${name}`, () => {
    const t = servicesOn(database, FAST_UPSTREAM);

    beforeAll(async () => {
      t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
    });

    /** The mirror's live records, files and bytes per table, as a count from the mirror sums them. */
    const mirrored = async (baseId: string) => {
      const rows = await runSql<Array<{ table_id: string; n: number | string; files: number | string; bytes: number | string }>>(
        t.dataSource,
        `SELECT table_id, COUNT(*) AS n, SUM(file_count) AS files, SUM(attachment_bytes) AS bytes FROM mirror_record
         WHERE base_id = :baseId AND deleted_at IS NULL GROUP BY table_id`,
        { baseId },
      );
      return rows
        .map((row) => ({
          tableId: row.table_id,
          recordCount: Number(row.n),
          fileCount: Number(row.files),
          storageBytes: Number(row.bytes),
        }))
        .sort((a, b) => a.tableId.localeCompare(b.tableId));
    };
    const truth = (baseId: string) =>
      expectedCounts(t.sandbox, baseId)
        .map(({ tableId, recordCount, fileCount, storageBytes }) => ({ tableId, recordCount, fileCount, storageBytes }))
        .sort((a, b) => a.tableId.localeCompare(b.tableId));

    /** A monitoring config on the base and a first seed of its mirror; the watch and the config it reads through. */
    const watchAndSeed = async (baseId: string) => {
      const { services } = t;
      const { id: configId } = await services.monitoringConfigs.create(
        t.accountId,
        parsed(monitoringConfigInput.create, { baseId, monitoringBaseId: t.newLogBase(), scope: 'records_only' }),
      );
      expect(await services.mirrorSeeds.seed(baseId)).toBe('live');
      expect(await mirrored(baseId)).toEqual(truth(baseId));
      return { configId, watchId: (await services.watches.find({ baseId }))!.id };
    };

    /** After a seed that changes met: `live`, and the mirror counts as the sandbox does, `table` as `expected`. */
    const expectSeededAsSandbox = async (seeding: Promise<string>, baseId: string, tableId: string, expected: object) => {
      expect(await seeding).toBe('live');
      t.sandbox.faults.update({ latencyMs: 0 });
      const counts = await mirrored(baseId);
      expect(counts).toEqual(truth(baseId));
      expect(counts.find((table) => table.tableId === tableId)).toMatchObject(expected);
    };

    it('answers 409 for a record, its history and a search until the first seed has ended', async () => {
      const { services, sandbox } = t;
      const base = sandbox.store.seedLargeBase({ name: `Unseeded ${name}`, tables: 1, recordsPerTable: 3 });
      const { id: configId } = await services.monitoringConfigs.create(
        t.accountId,
        parsed(monitoringConfigInput.create, { baseId: base.id, monitoringBaseId: t.newLogBase(), scope: 'records_only' }),
      );
      const [recordId] = [...base.tables[0]!.records.keys()];
      const reads = services.mirrorReads;
      const seeding = { status: 409, code: 'conflict' };
      await expect(reads.historyPage(t.accountId, configId, recordId!, { limit: 50 })).rejects.toMatchObject(seeding);
      await expect(reads.record(t.accountId, configId, recordId!)).rejects.toMatchObject(seeding);
      await expect(reads.searchRecords(t.accountId, configId, { search: 'a' })).rejects.toMatchObject(seeding);
      expect(await services.mirrorSeeds.seed(base.id)).toBe('live');
      expect((await reads.historyPage(t.accountId, configId, recordId!, { limit: 50 })).versions).toHaveLength(1);
    });

    it('applies the changes that arrived during the read, and counts files by the schema they left', async () => {
      const { services, sandbox } = t;
      const base = sandbox.store.seedLargeBase({ name: `Seed ${name}`, tables: 2, recordsPerTable: 1_000, attachmentsPerRecord: 2 });
      const baseId = base.id;
      const { configId, watchId } = await watchAndSeed(baseId);

      const [first, second] = base.tables;
      const files = (table: typeof first) => table!.fields.find((field) => field.name === 'Files')!;
      sandbox.faults.update({ latencyMs: LATENCY_MS });
      const seeding = services.mirrorSeeds.seed(baseId);
      // Once some of the second table's records are read (with its files counted), and before the rest are.
      await until(
        async () =>
          (
            await runSql<Array<{ n: number | string }>>(
              t.dataSource,
              'SELECT COUNT(*) AS n FROM mirror_seed_record WHERE base_id = :baseId AND table_id = :tableId',
              { baseId, tableId: second!.id },
            )
          )[0]!.n,
        (n) => Number(n) > 0,
      );
      expect((await services.mirrors.find(baseId))?.status).toBe('seeding');
      const [created] = sandbox.store.createRecords(baseId, first!.id, [
        { Name: 'Made during the seed', Files: [{ url: 'https://example.com/new.png', filename: 'new.png' }] },
      ]);
      const [kept, gone] = [...first!.records.keys()];
      sandbox.store.updateRecords(baseId, first!.id, [{ id: kept!, fields: { Files: [] } }]);
      sandbox.store.deleteRecords(baseId, first!.id, [gone!]);
      // The second table's attachment field goes: none of its files count any more, whether read before or after.
      const secondFiles = files(second).id;
      sandbox.store.deleteField(baseId, second!.id, secondFiles);
      await services.changeIngest.ingest(watchId);
      expect((await services.mirrors.find(baseId))?.status).toBe('seeding');

      await expectSeededAsSandbox(seeding, baseId, second!.id, { recordCount: 1_000, fileCount: 0, storageBytes: 0 });
      const reads = services.mirrorReads;
      expect((await reads.record(t.accountId, configId, created!.id)).fields).toMatchObject({
        [files(first).id]: [expect.objectContaining({ filename: 'new.png' })],
      });
      expect((await reads.record(t.accountId, configId, kept!)).fields[files(first).id]).toBeUndefined();
      expect((await reads.record(t.accountId, configId, gone!)).deletedAt).not.toBeNull();
      // Nor are the deleted field's cells in any record of the second table, those read before its deletion included.
      const holding = await runSql<Array<{ n: number | string }>>(
        t.dataSource,
        'SELECT COUNT(*) AS n FROM mirror_record WHERE base_id = :baseId AND table_id = :tableId AND fields_json LIKE :field',
        { baseId, tableId: second!.id, field: `%${secondFiles}%` },
      );
      expect(Number(holding[0]!.n)).toBe(0);
    });

    it('finishes a table as its listing ends, and applies the changes that arrive after it as versions', async () => {
      const { services, sandbox } = t;
      const base = sandbox.store.seedLargeBase({ name: `Early ${name}`, tables: 2, recordsPerTable: 1_000, attachmentsPerRecord: 2 });
      const baseId = base.id;
      const [small, large] = base.tables;
      // The small table lists in one page, the large one in ten.
      sandbox.store.deleteRecords(baseId, small!.id, [...small!.records.keys()].slice(100));
      const { configId, watchId } = await watchAndSeed(baseId);
      const reads = services.mirrorReads;

      // Gone while the mirror did not follow: the next seed finds it missing.
      const [unseen, kept, gone] = [...small!.records.keys()];
      sandbox.store.deleteRecords(baseId, small!.id, [unseen!]);
      sandbox.faults.update({ latencyMs: LATENCY_MS });
      const seeding = services.mirrorSeeds.seed(baseId);
      await until(
        async () => (await reads.record(t.accountId, configId, unseen!)).deletedAt,
        (deletedAt) => deletedAt !== null,
      );
      // The small table is finished while the large one still lists.
      expect((await services.mirrors.find(baseId))?.status).toBe('seeding');

      sandbox.store.updateRecords(baseId, small!.id, [{ id: kept!, fields: { Name: 'Renamed after its table was read' } }]);
      sandbox.store.deleteRecords(baseId, small!.id, [gone!]);
      const [created] = sandbox.store.createRecords(baseId, small!.id, [
        { Name: 'Made after its table was read', Files: [{ url: 'https://example.com/new.png', filename: 'new.png' }] },
      ]);
      const largeGone = [...large!.records.keys()][0]!;
      sandbox.store.deleteRecords(baseId, large!.id, [largeGone]);
      // The small table's attachment field goes: its records in the mirror are counted again.
      sandbox.store.deleteField(baseId, small!.id, small!.fields.find((field) => field.name === 'Files')!.id);
      await services.changeIngest.ingest(watchId);
      expect((await services.mirrors.find(baseId))?.status).toBe('seeding');

      await expectSeededAsSandbox(seeding, baseId, small!.id, { recordCount: 99, fileCount: 0, storageBytes: 0 });
      const history = async (recordId: string) =>
        (await reads.historyPage(t.accountId, configId, recordId, { limit: 10 })).versions.map((version) => version.eventType);
      expect(await history(unseen!)).toEqual(['record_delete', 'baseline']);
      // The attachment field's deletion empties the cells of the records that held files: a version each.
      expect(await history(kept!)).toEqual(['column_delete', 'record_update', 'baseline']);
      expect(await history(gone!)).toEqual(['record_delete', 'baseline']);
      expect(await history(created!.id)).toEqual(['column_delete', 'record_create']);
      expect(await history(largeGone)).toEqual(['record_delete', 'baseline']);
      expect((await reads.record(t.accountId, configId, kept!)).fields).toMatchObject({
        [small!.primaryFieldId]: 'Renamed after its table was read',
      });
      expect((await reads.record(t.accountId, configId, gone!)).deletedAt).not.toBeNull();
    });
  });
}
