import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UpstreamClient } from '../../src/upstream/client.js';
import { resetRateLimiters } from '../../src/upstream/rate-limiter.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import type { RecordListPage, UpstreamClientOptions, UpstreamRecord } from '../../src/upstream/types.js';
import { busiestWindow } from './busiest-window.js';
import { SANDBOX_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream.js';
import { failureOf } from '../support/upstream-failure.js';

let upstream: SandboxUpstream | undefined;

beforeEach(() => resetRateLimiters());
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

async function setUp(sandboxOptions: Partial<SandboxOptions> = {}) {
  upstream = await startSandboxUpstream(sandboxOptions);
  const connect = (options: Partial<UpstreamClientOptions> = {}) =>
    new UpstreamClient({
      baseUrl: upstream!.baseUrl,
      token: SANDBOX_TOKEN,
      retryBaseDelayMs: 5,
      lockoutMs: 300,
      timeoutMs: 5_000,
      ...options,
    });
  return { upstream, connect };
}

function seedBase(target: SandboxUpstream, recordsPerTable: number) {
  const base = target.sandbox.store.seedLargeBase({ name: 'Big base', tables: 1, recordsPerTable });
  const table = base.tables[0]!;
  const fieldId = (name: string) => table.fields.find((field) => field.name === name)!.id;
  return { baseId: base.id, table, fieldId, recordIds: [...table.records.keys()] };
}

/** Gathers a listing the way consumers must: a restarted page replaces everything gathered before it. */
async function collect(pages: AsyncIterable<RecordListPage>) {
  const seen: RecordListPage[] = [];
  let records: UpstreamRecord[] = [];
  for await (const page of pages) {
    seen.push(page);
    records = page.restarted ? [...page.records] : [...records, ...page.records];
  }
  return { pages: seen, records };
}

const apiCalls = (target: SandboxUpstream, method: string) =>
  target.calls.filter((call) => call.method === method && !call.url.startsWith('/_control'));

describe(UpstreamClient.name, () => {
  describe('reading', () => {
    it('lists bases and reads a base schema', async () => {
      const { upstream, connect } = await setUp();
      const { baseId, table } = seedBase(upstream, 3);
      const client = connect();

      const bases = await client.listBases();
      const tables = await client.getBaseSchema(baseId);

      expect(bases).toEqual([{ id: baseId, name: 'Big base', permissionLevel: 'create' }]);
      expect(tables.map((t) => [t.id, t.primaryFieldId])).toEqual([[table.id, table.primaryFieldId]]);
      expect(tables[0]!.fields.map((field) => field.type)).toEqual(['singleLineText', 'number', 'multipleAttachments']);
    });

    it('collects every record exactly once across pages', async () => {
      const { upstream, connect } = await setUp();
      const { baseId, table, recordIds } = seedBase(upstream, 250);

      const { pages, records } = await collect(connect().listRecordPages(baseId, table.id));

      expect(pages.map((page) => page.records.length)).toEqual([100, 100, 50]);
      expect(pages.every((page) => !page.restarted)).toBe(true);
      expect(records.map((record) => record.id)).toEqual(recordIds);
    });

    it('asks for fields with fields[] and gets only those, keyed by id when asked', async () => {
      const { upstream, connect } = await setUp();
      const { baseId, table, fieldId } = seedBase(upstream, 5);

      const { records } = await collect(connect().listRecordPages(baseId, table.id, { fields: ['Amount'], returnFieldsByFieldId: true }));

      const [call] = apiCalls(upstream, 'GET');
      expect(new URL(call!.url, 'http://x').searchParams.getAll('fields[]')).toEqual(['Amount']);
      expect(records).toHaveLength(5);
      for (const record of records) expect(Object.keys(record.fields)).toEqual([fieldId('Amount')]);
    });

    it('switches to POST listRecords when the GET URL would be too long', async () => {
      const { upstream, connect } = await setUp();
      const { baseId, table, fieldId, recordIds } = seedBase(upstream, 150);
      const fields = Array.from({ length: 600 }, () => fieldId('Name'));

      const { records } = await collect(connect().listRecordPages(baseId, table.id, { fields }));

      expect(apiCalls(upstream, 'GET')).toHaveLength(0);
      expect(apiCalls(upstream, 'POST').map((call) => call.url)).toEqual([
        `/v0/${baseId}/${table.id}/listRecords`,
        `/v0/${baseId}/${table.id}/listRecords`,
      ]);
      expect(records.map((record) => record.id)).toEqual(recordIds);
      expect(Object.keys(records[0]!.fields)).toEqual(['Name']);
    });

    it('restarts from the first page when the iterator expired, flagging the restart', async () => {
      const { upstream, connect } = await setUp();
      const { baseId, table, recordIds } = seedBase(upstream, 250);
      const pages = connect().listRecordPages(baseId, table.id);
      const seen: RecordListPage[] = [];
      let records: UpstreamRecord[] = [];

      for await (const page of pages) {
        seen.push(page);
        records = page.restarted ? page.records : [...records, ...page.records];
        if (seen.length === 1) await upstream.expireIterators();
      }

      expect(seen.map((page) => [page.records.length, page.restarted])).toEqual([
        [100, false],
        [100, true],
        [100, false],
        [50, false],
      ]);
      expect(records.map((record) => record.id)).toEqual(recordIds);
    });
  });

  describe('writing', () => {
    it('creates a table and a field', async () => {
      const { upstream, connect } = await setUp();
      const { baseId } = seedBase(upstream, 0);
      const client = connect();

      const table = await client.createTable(baseId, {
        name: 'Changes',
        fields: [{ name: 'Summary', type: 'singleLineText' }],
      });
      const count = { name: 'Count', type: 'number', options: { precision: 0 } };
      const field = await client.createField(baseId, table.id, count);

      expect(table.fields.map((f) => f.name)).toEqual(['Summary']);
      expect(table.primaryFieldId).toBe(table.fields[0]!.id);
      expect(field).toMatchObject({ name: 'Count', type: 'number' });
    });

    it('writes in chunks of 10 and keeps the input order', async () => {
      const { upstream, connect } = await setUp();
      const { baseId, table } = seedBase(upstream, 0);
      const client = connect({ requestsPerSecond: 5 });
      const names = Array.from({ length: 23 }, (_, i) => `row ${i}`);

      const created = await client.createRecords(
        baseId,
        table.id,
        names.map((Name) => ({ fields: { Name } })),
      );
      const updated = await client.updateRecords(
        baseId,
        table.id,
        created.map((record, i) => ({ id: record.id, fields: { Amount: i } })),
      );
      const deleted = await client.deleteRecords(
        baseId,
        table.id,
        created.map((record) => record.id),
      );

      expect(created.map((record) => record.fields.Name)).toEqual(names);
      expect(updated.map((record) => [record.id, record.fields.Amount])).toEqual(created.map((r, i) => [r.id, i]));
      expect(deleted).toEqual(created.map((record) => record.id));
      expect(apiCalls(upstream, 'POST')).toHaveLength(3);
      expect(apiCalls(upstream, 'PATCH')).toHaveLength(3);
      expect(apiCalls(upstream, 'DELETE')).toHaveLength(3);
      expect(table.records.size).toBe(0);
    });

    it('sends nothing for an empty batch', async () => {
      const { upstream, connect } = await setUp();
      const { baseId, table } = seedBase(upstream, 0);

      expect(await connect().createRecords(baseId, table.id, [])).toEqual([]);
      expect(upstream.calls).toHaveLength(0);
    });
  });

  describe('rate limits', () => {
    it.each(['error', 'errors'] as const)(
      'waits out the lock-out after a 429 with the %s body shape, then succeeds',
      async (rateLimitBody) => {
        const { upstream, connect } = await setUp();
        const { baseId } = seedBase(upstream, 1);
        upstream.sandbox.faults.update({ rateLimitPerSecond: 2, lockoutMs: 200, rateLimitBody });
        const client = connect({ requestsPerSecond: 10, lockoutMs: 250 });

        const results = await Promise.all(Array.from({ length: 4 }, () => client.getBaseSchema(baseId)));

        expect(results).toHaveLength(4);
        expect(client.stats.rateLimited).toBeGreaterThan(0);
        expect(upstream.sandbox.stats.rateLimited).toBe(client.stats.rateLimited);
        // The first four calls are the first attempts, all started at once; every retry waits out the lock-out.
        const refusedAt = upstream.calls.find((call) => call.status === 429)!.at;
        expect(upstream.calls[4]!.at - refusedAt).toBeGreaterThanOrEqual(240);
      },
    );

    it('keeps 12 parallel requests of two clients under 5 per second for one base', async () => {
      const { upstream, connect } = await setUp({ rateLimitPerSecond: 5 });
      const { baseId } = seedBase(upstream, 1);
      const clients = [connect(), connect()];

      await Promise.all(clients.flatMap((client) => Array.from({ length: 6 }, () => client.getBaseSchema(baseId))));

      expect(upstream.sandbox.stats.rateLimited).toBe(0);
      expect(upstream.sandbox.stats.requests).toBe(12);
      expect(busiestWindow(upstream.calls.map((call) => call.at))).toBeLessThanOrEqual(5);
    });
  });

  describe('failures', () => {
    it.each([500, 503] as const)('retries a %i and then succeeds', async (errorStatus) => {
      const { upstream, connect } = await setUp();
      const { baseId } = seedBase(upstream, 1);
      upstream.sandbox.faults.update({ errorRate: 1, errorStatus });
      const healAfterFirstFailure = () => upstream.sandbox.faults.update({ errorRate: 0 });
      const client = connect({ logger: { warn: healAfterFirstFailure } });

      const tables = await client.getBaseSchema(baseId);

      expect(tables).toHaveLength(1);
      expect(client.stats).toEqual({ requests: 2, retries: 1, rateLimited: 0 });
    });

    it('gives up with a 502 UpstreamRequestError after maxRetries while the upstream stays down', async () => {
      const { upstream, connect } = await setUp();
      const { baseId } = seedBase(upstream, 1);
      upstream.sandbox.faults.update({ errorRate: 1, errorStatus: 502 });

      const error = await failureOf(connect({ maxRetries: 2 }).getBaseSchema(baseId));

      expect(error.status).toBe(502);
      expect(error.upstreamStatus).toBe(502);
      expect(error.upstreamType).toBe('SERVER_ERROR');
      expect(error.attempts).toBe(3);
      expect(upstream.sandbox.stats.requests).toBe(3);
    });

    it('times out a slow upstream', async () => {
      const { upstream, connect } = await setUp();
      const { baseId } = seedBase(upstream, 1);
      upstream.sandbox.faults.update({ latencyMs: 1_000 });

      const error = await failureOf(connect({ timeoutMs: 100, maxRetries: 1 }).getBaseSchema(baseId));

      expect(error.upstreamType).toBe('TIMEOUT');
      expect(error.attempts).toBe(2);
    });

    it('fails at once on a 403 for an unknown base', async () => {
      const { upstream, connect } = await setUp();

      const error = await failureOf(connect().getBaseSchema('appUnknown0000000'));

      expect(error.upstreamStatus).toBe(403);
      expect(error.upstreamType).toBe('INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND');
      expect(error.attempts).toBe(1);
      expect(upstream.sandbox.stats.requests).toBe(1);
    });

    it('fails at once on a 422 for an unknown field', async () => {
      const { upstream, connect } = await setUp();
      const { baseId, table } = seedBase(upstream, 0);

      const error = await failureOf(connect().createRecords(baseId, table.id, [{ fields: { Nope: 1 } }]));

      expect(error.upstreamStatus).toBe(422);
      expect(error.upstreamType).toBe('UNKNOWN_FIELD_NAME');
      expect(error.attempts).toBe(1);
      expect(upstream.sandbox.stats.requests).toBe(1);
    });
  });
});
