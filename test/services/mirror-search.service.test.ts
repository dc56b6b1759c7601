import { beforeAll, describe, expect, it } from 'vitest';
import { runSql } from '../../src/repositories/run-sql.js';
import type { RecordMatch } from '../../src/services/mirror/mirror-read.service.js';
import { mirrorInput } from '../../src/services/mirror/mirror.input.js';
import { AUDIT_APP_ENV } from '../audit/audit-support.js';
import { until } from '../support/eventually.js';
import { DEMO_BASES } from '../support/factories.js';
import { asQuery, parsed, refusal } from '../support/service-calls.js';
import { serviceDatabases, servicesOn } from '../support/test-services.js';
import { MIRROR_WAIT_MS, mirroredConfig } from './mirrored-config.js';

/**
 * The record search of the mirror (issue 26, point 3): by the primary field's value in any case, by the start of a
 * record id, the limit, a table, deleted records left out, another account's config not found. On SQLite and, when
 * it answers, on PostgreSQL. Over HTTP: test/mirror/mirror-flow.ts.
 */
for (const { name, database } of await serviceDatabases()) {
  describe(`mirror record search on ${name}`, { timeout: 3 * MIRROR_WAIT_MS }, () => {
    const t = servicesOn(database, { ...AUDIT_APP_ENV });
    let configId: string;
    let suppliers: string;
    let products: string;
    const ids: Record<string, string> = {};
    const search = (input: { search: string; tableId?: string; limit?: number }, accountId = t.accountId) =>
      t.services.mirrorReads.searchRecords(accountId, configId, input);
    const names = (matches: RecordMatch[]) => matches.map((match) => match.primaryValue);

    beforeAll(async () => {
      t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
      const baseId = t.baseId(DEMO_BASES.catalog);
      configId = await mirroredConfig(t, baseId);
      const tables = await t.api.schema(baseId);
      suppliers = tables.find((table) => table.name === 'Suppliers')!.id;
      products = tables.find((table) => table.name === 'Products')!.id;
      const made = async (tableId: string, values: string[]) => {
        const created = await t.api.createRecords(
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
      await t.api.deleteRecords(baseId, suppliers, [ids['Zephyr Gone']!]);
      // The watch brings the changes into the mirror (polled: no HTTP here to be pinged at): the deletion is the last.
      await until(
        () => t.services.mirrorReads.record(t.accountId, configId, ids['Zephyr Gone']!).catch(() => null),
        (record) => record?.deletedAt != null,
        MIRROR_WAIT_MS,
      );
      await until(
        () => search({ search: 'Zephyr Lamp' }),
        (matches) => matches.length === 1,
        MIRROR_WAIT_MS,
      );
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

    it('takes its input through the search schema: a blank search, a limit outside 1–50 and a table name are refused', async () => {
      const parsedSearch = (query: Record<string, string | number>) =>
        search(parsed(mirrorInput.search, asQuery(query)) as { search: string; tableId?: string; limit?: number });
      expect(names(await parsedSearch({ search: 'ZEPHYR w', tableId: suppliers, limit: 50 }))).toEqual(['Zephyr Widgets']);
      expect(await parsedSearch({ search: 'zephyr', limit: 1 })).toHaveLength(1);
      const refused: Array<Record<string, string | number>> = [
        { search: '' },
        { search: '  ' },
        {},
        { search: 'zephyr', limit: 0 },
        { search: 'zephyr', limit: 51 },
        { search: 'zephyr', limit: 'two' },
        { search: 'zephyr', tableId: 'Suppliers' },
      ];
      for (const query of refused) expect(await refusal(() => parsedSearch(query)), JSON.stringify(query)).toBe('invalid_request');
    });

    it('is a conflict while the mirror is on its first seed (no seededAt yet)', async () => {
      const { dataSource } = t;
      const { baseId } = (await t.services.mirrorReads.mirrorOf(t.accountId, configId)).mirror;
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

    it('is not_found for another account’s config', async () => {
      await expect(search({ search: 'zephyr' }, t.other.accountId)).rejects.toMatchObject({ code: 'not_found' });
    });
  });
}
