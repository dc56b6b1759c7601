import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cells } from '../../src/services/mirror/record-state.js';
import { AUDIT_APP_ENV, relaxSandboxRateLimit } from '../audit/audit-support.js';
import { until } from '../support/eventually.js';
import { DEMO_BASES, newLogBase, upstreamBaseId } from '../support/factories.js';
import { ADMIN_URL, admin, createTestDatabase } from '../support/postgres.js';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
/** How long a step may take on a busy machine (an upper bound, not a measurement). */
const WAIT_MS = 60_000;
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
function describeRetention(name: string, database: () => Promise<{ env: Record<string, string>; drop(): Promise<void> }>) {
  describe(name, { timeout: 4 * WAIT_MS }, () => {
    let app: TestApp;
    let api: SandboxApi;
    let drop: () => Promise<void> = async () => undefined;

    const rowsOf = async (baseId: string) => {
      const counts: Record<string, number> = {};
      for (const table of MIRROR_TABLES) {
        const [row] = await app.running.dataSource.query(`SELECT COUNT(*) AS n FROM ${table} WHERE base_id = '${baseId}'`);
        counts[table] = Number(row.n);
      }
      return counts;
    };

    beforeAll(async () => {
      const db = await database();
      drop = db.drop;
      app = await startTestApp({ ...AUDIT_APP_ENV, AUDIT_RETENTION_DAYS: String(RETENTION_DAYS), ...db.env });
      relaxSandboxRateLimit(app);
      api = sandboxApi(app.url);
    });
    afterAll(async () => {
      await app?.close();
      await drop();
    });

    /** A config of the demo base (its own log base), once its mirror is live. */
    async function mirroredConfig(http: TestApp['http'], baseName: string) {
      const baseId = await upstreamBaseId(http, baseName);
      const res = await http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId: newLogBase(app), scope: 'records_only' } });
      expect(res.status).toBe(201);
      const configId = res.body.config.id as string;
      await until(
        async () => (await http('GET', `/monitoring-config/${configId}/mirror`)).body.mirror?.status,
        (status) => status === 'live',
        WAIT_MS,
      );
      return { baseId, configId };
    }

    it('folds versions older than the retention into the newest of them: the state at the oldest kept instant is unchanged', async () => {
      const { baseId, configId } = await mirroredConfig(app.http, DEMO_BASES.catalog);
      const reads = app.running.services.mirrorReads;
      const suppliers = (await api.schema(baseId)).find((t) => t.name === 'Suppliers')!;
      const field = (fieldName: string) => suppliers.fields.find((f) => f.name === fieldName)!.id;
      const [nameId, emailId] = [field('Name'), field('Email')];
      const at = (recordId: string, instant?: string) => reads.record(app.accountId, configId, recordId, instant);
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
        (await reads.historyPage(app.accountId, configId, recordId, { limit: 100 })).versions.map((v) => [v.eventType, v.fields]);
      const keptHistory = await history(kept);
      expect(keptHistory.map(([eventType]) => eventType)).toEqual(['record_update', 'record_update', 'record_update', 'record_create']);

      // Pruned as if it ran RETENTION_DAYS after `oldestKept`: everything before it is older than the retention.
      const folded = await app.running.services.mirrorRetention.prune(new Date(Date.parse(oldestKept) + RETENTION_DAYS * DAY_MS));
      expect(folded).toBe(2);

      expect(await at(kept, oldestKept)).toEqual(keptBefore);
      expect(await at(gone, oldestKept)).toEqual(goneBefore);
      expect(await at(kept)).toMatchObject({ fields: { [nameId]: 'Fold three', [emailId]: 'two@example.com' } });
      // The versions after the oldest kept instant stay as they were; the newest before it holds the whole record.
      expect(await history(kept)).toEqual(keptHistory.slice(0, 2));
      expect(await history(gone)).toEqual([['record_delete', {}]]);
      const [deleted] = (await reads.deleted(app.accountId, configId, { tableId: suppliers.id, limit: 1 })).records;
      expect(deleted).toMatchObject({ id: gone, fields: goneBefore.fields });
      // A deleted record whose versions were folded can still be restored with its last values (dry run).
      const plan = await app.running.services.mirrorRestores.create(app.accountId, configId, {
        tableId: suppliers.id,
        recordIds: [gone],
        dryRun: true,
      });
      expect(plan).toMatchObject({ create: 1, update: 0 });
      // Pruned again at the same instant: nothing is left to fold.
      expect(await app.running.services.mirrorRetention.prune(new Date(Date.parse(oldestKept) + RETENTION_DAYS * DAY_MS))).toBe(0);
    });

    it('deletes every row of a mirror when the last monitoring config of its base goes, and only then', async () => {
      const second = await app.newAccount('second watcher');
      const first = await mirroredConfig(app.http, DEMO_BASES.marketing);
      const other = await mirroredConfig(second.http, DEMO_BASES.marketing);
      const notes = (await api.schema(first.baseId)).find((t) => t.name === 'Notes')!;
      const [record] = (await api.listRecords(first.baseId, notes.id)).records as Array<{ id: string }>;
      // A restore of a record as it is: stored (done at once, nothing to write), and of the base like the rest.
      const restore = await second.http('POST', `/monitoring-config/${other.configId}/restores`, {
        body: { tableId: notes.id, recordIds: [record!.id] },
      });
      expect(restore.status).toBe(202);
      const before = await rowsOf(first.baseId);
      expect(before).toMatchObject({ mirror_base: 1, mirror_restore: 1 });
      expect(before.mirror_record).toBeGreaterThan(0);
      expect(before.mirror_version).toBeGreaterThan(0);

      expect((await app.http('DELETE', `/monitoring-config/${first.configId}`)).status).toBe(204);
      expect(await rowsOf(first.baseId)).toEqual(before);
      expect((await second.http('GET', `/monitoring-config/${other.configId}/mirror`)).body.mirror.status).toBe('live');

      expect((await second.http('DELETE', `/monitoring-config/${other.configId}`)).status).toBe(204);
      expect(await rowsOf(first.baseId)).toEqual(Object.fromEntries(MIRROR_TABLES.map((table) => [table, 0])));
    });
  });
}

describeRetention('mirror retention and release on SQLite', async () => ({ env: {}, drop: async () => undefined }));

const postgres = await admin('SELECT 1');
describe.skipIf(!postgres)(`on PostgreSQL (${ADMIN_URL.replace(/\/\/[^@]*@/, '//')})`, () => {
  describeRetention('mirror retention and release', async () => {
    const db = await createTestDatabase();
    return { env: { DATABASE_URL: db.url }, drop: db.drop };
  });
});
