import { beforeAll, describe, expect, it } from 'vitest';
import type { Cells } from '../../src/services/mirror/record-state.js';
import { mirrorInput } from '../../src/services/mirror/mirror.input.js';
import { AUDIT_APP_ENV } from '../audit/audit-support.js';
import { until } from '../support/eventually.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed } from '../support/service-calls.js';
import { FAST_UPSTREAM, serviceDatabases, servicesOn } from '../support/test-services.js';
import { MIRROR_WAIT_MS, mirroredConfig as liveConfig } from './mirrored-config.js';

const RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
const WAIT_MS = MIRROR_WAIT_MS;
const MIRROR_TABLES = ['mirror_base', 'mirror_record', 'mirror_version', 'mirror_seed_record', 'mirror_pending', 'mirror_restore'];

const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
/** An instant between two changes: after the one before, before the one after. */
async function instantBetween(): Promise<string> {
  await pause();
  const at = new Date().toISOString();
  await pause();
  return at;
}

/**
 * Retention and release of a mirror (issue 25, point 7), through the services: versions older than
 * AUDIT_RETENTION_DAYS fold into the newest of them, so a record's state at the oldest kept instant stays
 * answerable; the last monitoring config of a base going deletes everything its mirror keeps. On SQLite and, when it
 * answers, on PostgreSQL.
 */
for (const { name, database } of await serviceDatabases()) {
  describe(`mirror retention and release on ${name}`, { timeout: 4 * WAIT_MS }, () => {
    const t = servicesOn(database, { ...AUDIT_APP_ENV, ...FAST_UPSTREAM, AUDIT_RETENTION_DAYS: String(RETENTION_DAYS) });

    const rowsOf = async (baseId: string) => {
      const counts: Record<string, number> = {};
      for (const table of MIRROR_TABLES) {
        const [row] = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table} WHERE base_id = '${baseId}'`);
        counts[table] = Number(row.n);
      }
      return counts;
    };

    beforeAll(async () => {
      t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
    });

    /** A config of the demo base (its own log base), once its mirror is live. */
    async function mirroredConfig(accountId: string, baseName: string) {
      const baseId = t.baseId(baseName);
      return { baseId, configId: await liveConfig(t, baseId, accountId) };
    }

    it('folds versions older than the retention into the newest of them: the state at the oldest kept instant is unchanged', async () => {
      const { baseId, configId } = await mirroredConfig(t.accountId, DEMO_BASES.catalog);
      const reads = t.services.mirrorReads;
      const { api } = t;
      const suppliers = (await api.schema(baseId)).find((t) => t.name === 'Suppliers')!;
      const field = (fieldName: string) => suppliers.fields.find((f) => f.name === fieldName)!.id;
      const [nameId, emailId] = [field('Name'), field('Email')];
      const at = (recordId: string, instant?: string) => reads.record(t.accountId, configId, recordId, instant);
      const mirrored = (recordId: string, done: (fields: Cells) => boolean) =>
        until(
          () => at(recordId).catch(() => null),
          (record) => record !== null && done(record.fields),
          WAIT_MS,
        );

      // One record changed field by field (each update a version that holds only what changed), another deleted.
      const create = async (fields: Cells) => (await api.createRecords(baseId, suppliers.id, [fields])).records[0].id as string;
      const kept = await create({ Name: 'Fold one', Email: 'one@example.com' });
      const gone = await create({ Name: 'Fold gone', Email: 'gone@example.com' });
      await mirrored(kept, (fields) => fields[nameId] === 'Fold one');
      await mirrored(gone, (fields) => fields[nameId] === 'Fold gone');
      await instantBetween();
      await api.updateRecords(baseId, suppliers.id, [{ id: kept, fields: { Name: 'Fold two' } }]);
      await mirrored(kept, (fields) => fields[nameId] === 'Fold two');
      await instantBetween();
      await api.updateRecords(baseId, suppliers.id, [{ id: kept, fields: { Email: 'two@example.com' } }]);
      await api.deleteRecords(baseId, suppliers.id, [gone]);
      await mirrored(kept, (fields) => fields[emailId] === 'two@example.com');
      await until(
        () => at(gone),
        (record) => record.deletedAt !== null,
        WAIT_MS,
      );
      const oldestKept = await instantBetween();
      await api.updateRecords(baseId, suppliers.id, [{ id: kept, fields: { Name: 'Fold three' } }]);
      await mirrored(kept, (fields) => fields[nameId] === 'Fold three');

      const keptBefore = await at(kept, oldestKept);
      const goneBefore = await at(gone, oldestKept);
      expect(keptBefore.fields).toMatchObject({ [nameId]: 'Fold two', [emailId]: 'two@example.com' });
      expect(goneBefore).toMatchObject({ deletedAt: expect.any(String), fields: { [nameId]: 'Fold gone' } });
      const history = async (recordId: string) =>
        (await reads.historyPage(t.accountId, configId, recordId, { limit: 100 })).versions.map((v) => [
          v.eventType,
          JSON.parse(v.fieldsJson),
        ]);
      const keptHistory = await history(kept);
      expect(keptHistory.map(([eventType]) => eventType)).toEqual(['record_update', 'record_update', 'record_update', 'record_create']);

      // Pruned as if it ran RETENTION_DAYS after `oldestKept`: everything before it is older than the retention.
      const folded = await t.services.mirrorRetention.prune(new Date(Date.parse(oldestKept) + RETENTION_DAYS * DAY_MS));
      expect(folded).toBe(2);

      expect(await at(kept, oldestKept)).toEqual(keptBefore);
      expect(await at(gone, oldestKept)).toEqual(goneBefore);
      expect(await at(kept)).toMatchObject({ fields: { [nameId]: 'Fold three', [emailId]: 'two@example.com' } });
      // The versions after the oldest kept instant stay as they were; the newest before it holds the whole record.
      expect(await history(kept)).toEqual(keptHistory.slice(0, 2));
      expect(await history(gone)).toEqual([['record_delete', {}]]);
      const [deleted] = (await reads.deleted(t.accountId, configId, { tableId: suppliers.id, limit: 1 })).records;
      expect(deleted).toMatchObject({ id: gone, fields: goneBefore.fields });
      // A deleted record whose versions were folded can still be restored with its last values (dry run).
      const plan = await t.services.mirrorRestores.create(
        t.accountId,
        configId,
        parsed(mirrorInput.restore, { tableId: suppliers.id, recordIds: [gone], dryRun: true }),
      );
      expect(plan).toMatchObject({ create: 1, update: 0 });
      // Pruned again at the same instant: nothing is left to fold.
      expect(await t.services.mirrorRetention.prune(new Date(Date.parse(oldestKept) + RETENTION_DAYS * DAY_MS))).toBe(0);
    });

    it('deletes every row of a mirror when the last monitoring config of its base goes, and only then', async () => {
      const { api, services } = t;
      const second = await t.newAccount('second watcher');
      const first = await mirroredConfig(t.accountId, DEMO_BASES.marketing);
      const other = await mirroredConfig(second.accountId, DEMO_BASES.marketing);
      const notes = (await api.schema(first.baseId)).find((t) => t.name === 'Notes')!;
      const [record] = (await api.listRecords(first.baseId, notes.id)).records as Array<{ id: string }>;
      // A restore of a record as it is: stored (done at once, nothing to write), and of the base like the rest.
      await services.mirrorRestores.create(
        second.accountId,
        other.configId,
        parsed(mirrorInput.restore, { tableId: notes.id, recordIds: [record!.id] }),
      );
      const before = await rowsOf(first.baseId);
      expect(before).toMatchObject({ mirror_base: 1, mirror_restore: 1 });
      expect(before.mirror_record).toBeGreaterThan(0);
      expect(before.mirror_version).toBeGreaterThan(0);

      await services.monitoringConfigs.remove(t.accountId, first.configId);
      expect(await rowsOf(first.baseId)).toEqual(before);
      expect((await services.mirrorReads.state(second.accountId, other.configId)).status).toBe('live');

      await services.monitoringConfigs.remove(second.accountId, other.configId);
      expect(await rowsOf(first.baseId)).toEqual(Object.fromEntries(MIRROR_TABLES.map((table) => [table, 0])));
    });
  });
}
