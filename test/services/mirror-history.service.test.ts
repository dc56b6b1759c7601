import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitoringConfigInput } from '../../src/services/monitoring-config.input.js';
import { KEYFRAME_EVERY } from '../../src/services/mirror/record-state.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed } from '../support/service-calls.js';
import { FAST_UPSTREAM, startTestServices, type TestServices } from '../support/test-services.js';

const EDITS = 3 * KEYFRAME_EVERY + 5;

/**
 * A record's history across the whole versions the mirror keeps every 16th time (CONTRACT §11): every page, at any
 * cursor, gives each version the whole record after it, as does the record at each version's instant. Service-level.
 */
describe('a long record history', () => {
  let t: TestServices;
  let configId: string;
  let recordId: string;
  let emailId: string;

  beforeAll(async () => {
    t = await startTestServices(FAST_UPSTREAM);
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
    const baseId = t.baseId(DEMO_BASES.catalog);
    ({ id: configId } = await t.services.monitoringConfigs.create(
      t.accountId,
      parsed(monitoringConfigInput.create, { baseId, monitoringBaseId: t.newLogBase(), scope: 'records_only' }),
    ));
    expect(await t.services.mirrorSeeds.seed(baseId)).toBe('live');
    const table = t.sandbox.store.getBase(baseId)!.tables.find((candidate) => candidate.name === 'Suppliers')!;
    emailId = table.fields.find((field) => field.name === 'Email')!.id;
    recordId = [...table.records.keys()][0]!;
    const watchId = (await t.services.watches.find({ baseId }))!.id;
    for (let i = 1; i <= EDITS; i++) {
      t.sandbox.store.updateRecords(baseId, table.id, [{ id: recordId, fields: { Email: `edit${i}@example.com` } }]);
      // Each edit its own ingestion: its own version, in order.
      await t.services.changeIngest.ingest(watchId);
    }
  });
  afterAll(() => t?.close());

  it('gives every version the whole record after it, on pages of any size', async () => {
    const reads = t.services.mirrorReads;
    const current = await reads.record(t.accountId, configId, recordId);
    const otherCells = Object.fromEntries(Object.entries(current.fields).filter(([fieldId]) => fieldId !== emailId));
    expect(current.fields[emailId]).toBe(`edit${EDITS}@example.com`);

    for (const limit of [1, 7, KEYFRAME_EVERY, 50]) {
      const versions = [];
      let cursor: string | undefined;
      do {
        const page = await reads.historyPage(t.accountId, configId, recordId, { limit, ...(cursor ? { cursor } : {}) });
        versions.push(...page.versions);
        cursor = page.nextCursor;
      } while (cursor);
      // Newest first: the edits, then the seed's whole record.
      expect(versions, `pages of ${limit}`).toHaveLength(EDITS + 1);
      versions.slice(0, EDITS).forEach((version, i) => {
        expect(version.eventType).toBe('record_update');
        expect(JSON.parse(version.fieldsJson), `pages of ${limit}, version ${i}`).toEqual({
          ...otherCells,
          [emailId]: `edit${EDITS - i}@example.com`,
        });
      });
      expect(versions.at(-1)!.eventType).toBe('baseline');
    }
  });

  it('answers the record at each version’s instant with that version’s whole record', async () => {
    const reads = t.services.mirrorReads;
    const { versions } = await reads.historyPage(t.accountId, configId, recordId, { limit: EDITS + 1 });
    const { seededAt } = await reads.state(t.accountId, configId);
    let answered = 0;
    for (const version of versions) {
      if (Date.parse(version.at) < seededAt!.getTime()) {
        // The seed read the record before it completed; the mirror answers instants from its seededAt on (§11).
        expect(version.eventType).toBe('baseline');
        await expect(reads.record(t.accountId, configId, recordId, version.at)).rejects.toMatchObject({ code: 'invalid_request' });
        continue;
      }
      answered += 1;
      // Versions made in the same millisecond: the record at that instant is the newest of them.
      const newestAtSameInstant = versions.find((candidate) => candidate.at === version.at)!;
      expect((await reads.record(t.accountId, configId, recordId, version.at)).fields).toEqual(JSON.parse(newestAtSameInstant.fieldsJson));
    }
    expect(answered).toBeGreaterThanOrEqual(EDITS);
  });
});
