import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UpstreamBaseId } from '../../src/services/input-fields.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed, refusal } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';

/** The upstream helpers' rules (AirtableLookupService), without HTTP. The transport: test/integration/airtable-helpers.test.ts. */

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices();
});
afterEach(() => t.sandbox.faults.reset());
afterAll(() => t?.close());

/** The tables route's path parameters. */
const TablesParams = z.object({ baseId: UpstreamBaseId });

describe('AirtableLookupService.listBases', () => {
  it('lists the upstream account’s bases with their id, name and permission level', async () => {
    const bases = await t.services.airtableLookup.listBases(t.accountId);
    const expected = t.sandbox.store.listBases().map((b) => ({ id: b.id, name: b.name, permissionLevel: b.permissionLevel }));
    expect(bases.map(({ id, name, permissionLevel }) => ({ id, name, permissionLevel }))).toEqual(expected);
    expect(bases.map((b) => b.name)).toEqual(expect.arrayContaining(Object.values(DEMO_BASES)));
    for (const base of bases) expect(base.id).toMatch(/^app[A-Za-z0-9]{14}$/);
  });

  it('is refused with upstream_error when the upstream fails for good', async () => {
    t.sandbox.faults.update({ errorRate: 1, errorStatus: 500 });
    expect(await refusal(() => t.services.airtableLookup.listBases(t.accountId))).toBe('upstream_error');
  });
});

describe('AirtableLookupService.listTables', () => {
  it('lists tables with their primary field and fields', async () => {
    const baseId = t.baseId(DEMO_BASES.catalog);
    const tables = await t.services.airtableLookup.listTables(t.accountId, parsed(TablesParams, { baseId }).baseId);
    expect(
      tables.map((table) => ({
        id: table.id,
        name: table.name,
        primaryFieldId: table.primaryFieldId,
        fields: table.fields.map(({ id, name, type }) => ({ id, name, type })),
      })),
    ).toEqual(
      t.sandbox.store.getBase(baseId)!.tables.map((table) => ({
        id: table.id,
        name: table.name,
        primaryFieldId: table.primaryFieldId,
        fields: table.fields.map((f) => ({ id: f.id, name: f.name, type: f.type })),
      })),
    );
    const products = tables.find((table) => table.name === 'Products')!;
    expect(products.fields.map((f) => f.type)).toContain('multipleAttachments');
  });

  it('is not_found for a base the upstream account does not have, and refuses a malformed id', async () => {
    const unknown = await t.services.airtableLookup.listTables(t.accountId, 'appAAAAAAAAAAAAAA').catch((error: unknown) => error);
    expect(unknown).toMatchObject({ code: 'not_found', message: 'Upstream base not found' });
    expect(await refusal(() => parsed(TablesParams, { baseId: 'nonsense' }))).toBe('invalid_request');
  });
});
