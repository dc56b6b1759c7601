import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSql } from '../../src/repositories/run-sql.js';
import type { RecordMatch } from '../../src/services/mirror/mirror-read.service.js';
import { AUDIT_APP_ENV, relaxSandboxRateLimit } from '../audit/audit-support.js';
import { until } from '../support/eventually.js';
import { DEMO_BASES, newLogBase, upstreamBaseId } from '../support/factories.js';
import { admin, createTestDatabase } from '../support/postgres.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** How long a step may take on a busy machine (an upper bound, not a measurement). */
const WAIT_MS = 60_000;

/**
 * The record search of the mirror (issue 26, point 3), through the service (no HTTP in the assertions): by the
 * primary field's value in any case, by the start of a record id, the limit, a table, deleted records left out,
 * another account's config a 404. On SQLite and, when it answers, on PostgreSQL.
 */
function describeSearch(name: string, database: () => Promise<{ env: Record<string, string>; drop(): Promise<void> }>) {
  describe(name, { timeout: 3 * WAIT_MS }, () => {
    let app: TestApp;
    let drop: () => Promise<void> = async () => undefined;
    let configId: string;
    let suppliers: string;
    let products: string;
    const ids: Record<string, string> = {};
    const search = (input: { search: string; tableId?: string; limit?: number }, accountId = app.accountId) =>
      app.running.services.mirrorReads.searchRecords(accountId, configId, input);
    const names = (matches: RecordMatch[]) => matches.map((match) => match.primaryValue);

    beforeAll(async () => {
      const db = await database();
      drop = db.drop;
      app = await startTestApp({ ...AUDIT_APP_ENV, ...db.env });
      relaxSandboxRateLimit(app);
      const api = sandboxApi(app.url);
      const baseId = await upstreamBaseId(app.http, DEMO_BASES.catalog);
      const res = await app.http('POST', '/monitoring-config', {
        body: { baseId, monitoringBaseId: newLogBase(app), scope: 'records_only' },
      });
      expect(res.status).toBe(201);
      configId = res.body.config.id;
      const tables = await api.schema(baseId);
      suppliers = tables.find((t) => t.name === 'Suppliers')!.id;
      products = tables.find((t) => t.name === 'Products')!.id;
      await until(
        async () => (await app.http('GET', `/monitoring-config/${configId}/mirror`)).body.mirror?.status,
        (status) => status === 'live',
        WAIT_MS,
      );
      const made = async (tableId: string, values: string[]) => {
        const created = await api.createRecords(
          baseId,
          tableId,
          values.map((Name) => ({ Name })),
        );
        created.records.forEach((record: { id: string }, i: number) => {
          ids[values[i]!] = record.id;
        });
      };
      await made(suppliers, ['Zephyr Widgets', 'zephyr gadgets', 'ZEPHYR Parts', 'Zephyr Gone', 'Ölmühle Zürich', '100% Cotton_Co']);
      await made(products, ['Zephyr Lamp']);
      await api.deleteRecords(baseId, suppliers, [ids['Zephyr Gone']!]);
      // The watch brings the changes into the mirror: the deletion is the last of them.
      await until(
        () => app.running.services.mirrorReads.record(app.accountId, configId, ids['Zephyr Gone']!).catch(() => null),
        (record) => record?.deletedAt != null,
        WAIT_MS,
      );
      await until(
        () => search({ search: 'Zephyr Lamp' }),
        (matches) => matches.length === 1,
        WAIT_MS,
      );
    });
    afterAll(async () => {
      await app?.close();
      await drop();
    });

    it('finds records by a part of the primary value in any case, ordered by it, without the deleted ones', async () => {
      const matches = await search({ search: 'zePHyr' });
      expect(names(matches)).toEqual(['zephyr gadgets', 'Zephyr Lamp', 'ZEPHYR Parts', 'Zephyr Widgets']);
      expect(matches[0]).toEqual({ id: ids['zephyr gadgets'], tableId: suppliers, primaryValue: 'zephyr gadgets' });
      expect(names(await search({ search: 'HYR wid' }))).toEqual(['Zephyr Widgets']);
      expect(await search({ search: 'Zephyr Gone' })).toEqual([]);
    });

    it('folds letters beyond ASCII and takes LIKE’s own characters literally', async () => {
      expect(names(await search({ search: 'ÖLMÜHLE zü' }))).toEqual(['Ölmühle Zürich']);
      expect(names(await search({ search: '0% cotton_' }))).toEqual(['100% Cotton_Co']);
      expect(names(await search({ search: '%' }))).toEqual(['100% Cotton_Co']);
    });

    it('finds a record by the start of its id, exactly', async () => {
      const id = ids['Zephyr Widgets']!;
      const matches = await search({ search: id.slice(0, 10) });
      expect(matches.map((match) => match.id)).toContain(id);
      expect(matches.every((match) => match.id.startsWith(id.slice(0, 10)))).toBe(true);
      expect(await search({ search: id })).toEqual([{ id, tableId: suppliers, primaryValue: 'Zephyr Widgets' }]);
      // The id of a deleted record finds nothing.
      expect(await search({ search: ids['Zephyr Gone']! })).toEqual([]);
    });

    it('keeps to the limit (20 by default, at most 50) and to a table', async () => {
      expect(names(await search({ search: 'zephyr', limit: 2 }))).toEqual(['zephyr gadgets', 'Zephyr Lamp']);
      expect(names(await search({ search: 'zephyr', tableId: suppliers }))).toEqual(['zephyr gadgets', 'ZEPHYR Parts', 'Zephyr Widgets']);
      expect(names(await search({ search: 'zephyr', tableId: products }))).toEqual(['Zephyr Lamp']);
      expect(await search({ search: 'zephyr', tableId: 'tblUnknownTable00' })).toEqual([]);
      // Every demo supplier's name has a space: more than the limits match.
      expect(await search({ search: ' ', tableId: suppliers })).toHaveLength(20);
      expect(await search({ search: ' ', limit: 500 })).toHaveLength(50);
    });

    it('is GET /monitoring-config/{id}/records over HTTP: the matches, 400 for bad input, 404 for another account', async () => {
      const path = (query: string) => `/monitoring-config/${configId}/records?${query}`;
      const ok = await app.http('GET', path(`search=${encodeURIComponent('ZEPHYR w')}&tableId=${suppliers}&limit=50`));
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ records: [{ id: ids['Zephyr Widgets'], tableId: suppliers, primaryValue: 'Zephyr Widgets' }] });
      expect((await app.http('GET', path('search=zephyr&limit=1'))).body.records).toHaveLength(1);
      for (const query of [
        'search=',
        'search=%20%20',
        '',
        'search=zephyr&limit=0',
        'search=zephyr&limit=51',
        'search=zephyr&limit=two',
        'search=zephyr&tableId=Suppliers',
      ]) {
        const res = await app.http('GET', path(query));
        expect(res.status, query).toBe(400);
        expect(res.body.code, query).toBe('invalid_request');
      }
      const other = await app.other.http('GET', path('search=zephyr'));
      expect(other.status).toBe(404);
      expect(other.body.code).toBe('not_found');
    });

    it('answers 409 conflict while the mirror is on its first seed (no seededAt yet)', async () => {
      const dataSource = app.running.dataSource;
      const { baseId } = (await app.running.services.mirrorReads.mirrorOf(app.accountId, configId)).mirror;
      const [{ seeded_at: seededAt }] = await runSql<Array<{ seeded_at: unknown }>>(
        dataSource,
        'SELECT seeded_at FROM mirror_base WHERE base_id = :baseId',
        { baseId },
      );
      await runSql(dataSource, 'UPDATE mirror_base SET seeded_at = NULL WHERE base_id = :baseId', { baseId });
      try {
        await expect(search({ search: 'zephyr' })).rejects.toMatchObject({ code: 'conflict' });
      } finally {
        await runSql(dataSource, 'UPDATE mirror_base SET seeded_at = :seededAt WHERE base_id = :baseId', { baseId, seededAt });
      }
      expect(await search({ search: 'zephyr' })).toHaveLength(4);
    });

    it('answers 404 for another account’s config', async () => {
      await expect(search({ search: 'zephyr' }, app.other.accountId)).rejects.toMatchObject({ code: 'not_found' });
    });
  });
}

describeSearch('mirror record search on SQLite', async () => ({ env: {}, drop: async () => undefined }));

const postgres = await admin('SELECT 1');
if (postgres) {
  describeSearch('mirror record search on PostgreSQL', async () => {
    const db = await createTestDatabase();
    return { env: { DATABASE_URL: db.url }, drop: db.drop };
  });
} else {
  describe.skip('mirror record search on PostgreSQL (no server at TEST_POSTGRES_URL)', () => undefined);
}
