import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorInput } from '../../src/services/mirror/mirror.input.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed } from '../support/service-calls.js';
import { FAST_UPSTREAM, startTestServices, type TestServices } from '../support/test-services.js';
import { seededConfig } from './mirrored-config.js';

/**
 * A field deleted upstream (CONTRACT §11): it leaves the records, now and at every later instant, with a
 * `column_delete` version each; earlier instants and deleted records keep its values. Service-level.
 */
describe('a field deleted upstream', () => {
  let t: TestServices;
  let configId: string;
  let baseId: string;
  let tableId: string;
  let emailId: string;
  let edited: string;
  let untouched: string;
  let gone: string;
  let emailsBefore: Map<string, unknown>;

  beforeAll(async () => {
    t = await startTestServices(FAST_UPSTREAM);
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
    baseId = t.baseId(DEMO_BASES.catalog);
    configId = await seededConfig(t, baseId);
    const table = t.sandbox.store.getBase(baseId)!.tables.find((candidate) => candidate.name === 'Suppliers')!;
    tableId = table.id;
    emailId = table.fields.find((field) => field.name === 'Email')!.id;
    [edited, untouched, gone] = [...table.records.keys()] as [string, string, string];
    const watchId = (await t.services.watches.find({ baseId }))!.id;
    t.sandbox.store.deleteRecords(baseId, tableId, [gone]);
    await t.services.changeIngest.ingest(watchId);
    emailsBefore = new Map(
      await Promise.all(
        [edited, untouched].map(
          async (id) => [id, (await t.services.mirrorReads.record(t.accountId, configId, id)).fields[emailId]] as const,
        ),
      ),
    );
    // One page of payloads: an edit of a record, then the field's deletion (the sweep must not undo the edit, nor miss the rest).
    t.sandbox.store.updateRecords(baseId, tableId, [{ id: edited, fields: { Email: 'last@example.com' } }]);
    // Apart in time, so that an instant between them holds the edit and the field.
    await new Promise((resolve) => setTimeout(resolve, 5));
    t.sandbox.store.deleteField(baseId, tableId, emailId);
    await t.services.changeIngest.ingest(watchId);
  });
  afterAll(() => t?.close());

  it('is gone from every live record, read now or at an instant after its deletion', async () => {
    const reads = t.services.mirrorReads;
    expect(emailsBefore.get(untouched)).toEqual(expect.any(String));
    for (const recordId of [edited, untouched]) {
      const now = await reads.record(t.accountId, configId, recordId);
      expect(now.fields, recordId).not.toHaveProperty(emailId);
      expect(Object.keys(now.fields).length, recordId).toBeGreaterThan(0);
      const atNow = await reads.record(t.accountId, configId, recordId, new Date().toISOString());
      expect(atNow.fields, recordId).toEqual(now.fields);
    }
  });

  it('shows its removal as a column_delete version, with the values before it still readable', async () => {
    const reads = t.services.mirrorReads;
    const { versions } = await reads.historyPage(t.accountId, configId, edited, { limit: 10 });
    expect(versions.map((version) => version.eventType)).toEqual(['column_delete', 'record_update', 'baseline']);
    expect(JSON.parse(versions[0]!.fieldsJson)).not.toHaveProperty(emailId);
    expect(JSON.parse(versions[1]!.fieldsJson)[emailId]).toBe('last@example.com');
    const beforeDeletion = new Date(Date.parse(versions[0]!.at) - 1).toISOString();
    expect((await reads.record(t.accountId, configId, edited, beforeDeletion)).fields[emailId]).toBe('last@example.com');

    const untouchedVersions = (await reads.historyPage(t.accountId, configId, untouched, { limit: 10 })).versions;
    expect(untouchedVersions.map((version) => version.eventType)).toEqual(['column_delete', 'baseline']);
    expect(JSON.parse(untouchedVersions[1]!.fieldsJson)[emailId]).toBe(emailsBefore.get(untouched));
  });

  it('leaves a record deleted before it with its last values', async () => {
    const { records } = await t.services.mirrorReads.deleted(t.accountId, configId, parsed(mirrorInput.deleted, { tableId, limit: '10' }));
    const deleted = records.find((record) => record.id === gone);
    expect(deleted?.fields).toHaveProperty(emailId);
    const history = await t.services.mirrorReads.historyPage(t.accountId, configId, gone, { limit: 10 });
    expect(history.versions.map((version) => version.eventType)).toEqual(['record_delete', 'baseline']);
  });
});
