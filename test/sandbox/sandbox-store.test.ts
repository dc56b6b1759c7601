import { describe, expect, it } from 'vitest';
import {
  createSandbox,
  DEMO_BASE_NAMES,
  DEMO_TABLES,
  demoRecordCount,
  type AttachmentResponse,
  type SandboxStore,
} from '../../src/sandbox/index.js';
import { baseIdByName, listAll, startSandbox } from './sandbox-harness.js';

function dump(store: SandboxStore): string {
  return JSON.stringify(store.listBases(), (_key, value: unknown) => (value instanceof Map ? [...value.values()] : value));
}

describe('sandbox demo seed', () => {
  it('is identical on every start with the same seed', () => {
    const first = createSandbox({ token: 't' });
    const second = createSandbox({ token: 't' });
    expect(dump(second.store)).toBe(dump(first.store));
    expect(dump(createSandbox({ token: 't', seed: 99 }).store)).not.toBe(dump(first.store));
  });

  it('holds the documented bases, tables and record counts at any scale', () => {
    for (const scale of [1, 2.5]) {
      const { store } = createSandbox({ token: 't', demo: { scale } });
      for (const [baseName, tables] of Object.entries(DEMO_TABLES)) {
        const summary = store.summarizeBase(baseIdByName({ store }, baseName));
        const expected = Object.entries(tables).map(([name, count]) => [name, demoRecordCount(count, scale)]);
        expect(summary.tables.map((table) => [table.name, table.records])).toEqual(expected);
      }
    }
  });

  it('mixes small and multi-megabyte attachments, some without a size', () => {
    const { store } = createSandbox({ token: 't', demo: { scale: 2 } });
    const catalog = store.summarizeBase(store.listBases()[0].id);
    const suppliers = catalog.tables.find((table) => table.name === 'Suppliers');
    expect(suppliers?.attachments).toBe(0);
    expect(catalog.attachmentsWithoutSize).toBeGreaterThan(0);
    expect(catalog.attachmentBytes).toBeGreaterThan(2 ** 31);
    expect(store.listBases().find((base) => base.name === DEMO_BASE_NAMES.changeLog)?.tables).toEqual([]);
  });

  it('lets a usage count over the API reach the store summary', async () => {
    const harness = await startSandbox();
    try {
      const baseId = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.catalog);
      const summary = harness.sandbox.store.summarizeBase(baseId);
      for (const table of harness.sandbox.store.requireBase(baseId).tables) {
        const attachmentFields = table.fields.filter((field) => field.type === 'multipleAttachments');
        const query = [table.primaryFieldId, ...attachmentFields.map((field) => field.id)].map((id) => `fields[]=${id}`).join('&');
        const { records } = await listAll(harness, `/v0/${baseId}/${table.id}`, `${query}&returnFieldsByFieldId=true`);
        const attachments = records.flatMap((record) =>
          attachmentFields.flatMap((field) => (record.fields[field.id] ?? []) as AttachmentResponse[]),
        );
        const bytes = attachments.reduce((total, attachment) => total + (attachment.size ?? 0), 0);
        const expected = summary.tables.find((candidate) => candidate.id === table.id);
        expect({ records: records.length, attachments: attachments.length, bytes }).toEqual({
          records: expected?.records,
          attachments: expected?.attachments,
          bytes: expected?.attachmentBytes,
        });
      }
    } finally {
      await harness.close();
    }
  });
});

describe('sandbox large bases', () => {
  it('seeds 100,000 records deterministically', () => {
    const options = { name: 'Big', tables: 10, recordsPerTable: 10_000, attachmentsPerRecord: 1 };
    const { store } = createSandbox({ token: 't', demo: false });
    const base = store.seedLargeBase(options);
    const summary = store.summarizeBase(base.id);
    expect(summary.records).toBe(100_000);
    expect(summary.tables).toHaveLength(10);
    expect(summary.attachments).toBe(100_000);
    expect(summary.attachmentsWithoutSize).toBe(2_000);

    const again = createSandbox({ token: 't', demo: false }).store.seedLargeBase(options);
    expect(again.id).toBe(base.id);
    expect([...again.tables[9].records.keys()].slice(-3)).toEqual([...base.tables[9].records.keys()].slice(-3));
  });

  it('seeds a large base with more fields when asked, keeping the standard three', () => {
    const { store } = createSandbox({ token: 't', demo: false });
    const base = store.seedLargeBase({ name: 'Wide', tables: 2, recordsPerTable: 100, attachmentsPerRecord: 1, fieldsPerTable: 50 });
    for (const table of base.tables) {
      expect(table.fields).toHaveLength(50);
      expect(table.fields.slice(0, 3).map((f) => f.name)).toEqual(['Name', 'Amount', 'Files']);
      expect(new Set(table.fields.map((f) => f.name)).size).toBe(50);
    }
    const cells = [...base.tables[0].records.values()].map((record) => Object.keys(record.cellsByFieldId).length);
    expect(Math.max(...cells)).toBeGreaterThan(30);
    expect(store.summarizeBase(base.id).attachments).toBe(200);
    expect(() => store.seedLargeBase({ name: 'Narrow', tables: 1, recordsPerTable: 1, fieldsPerTable: 2 })).toThrow();
  });
});
