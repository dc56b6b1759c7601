import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The snapshot history over HTTP: its shape, paging, a refusal, 404s, ETags and gzip. Its rules: test/services/snapshots.service.test.ts. */

let app: TestApp;
let base: { id: string; baseId: string };
/** 400 counted days, newest first, ending 2026-11-20. */
const days = Array.from({ length: 400 }, (_, i) => DateTime.fromISO('2026-11-20').minus({ days: i }).toISODate() as string);

beforeAll(async () => {
  app = await startTestApp();
  base = await trackBase(app.http, DEMO_BASES.catalog);
  const { snapshots } = app.running.services;
  for (const [i, date] of days.entries()) {
    const tables = [
      { tableId: 'tblAAAAAAAAAAAAAA', tableName: 'A', recordCount: i, storageBytes: i * 3_000_000_000, fileCount: i * 2 },
      { tableId: 'tblBBBBBBBBBBBBBB', tableName: 'B', recordCount: 1, storageBytes: 0, fileCount: 0 },
    ];
    await snapshots.record(base.id, date, tables, new Date());
  }
});
afterAll(() => app.close());

const datesOf = (body: { days: Array<{ date: string }> }) => body.days.map((d) => d.date);

describe('GET /usage/bases/{id}/snapshots', () => {
  it('returns 30 days newest first by default, in exactly the seed shape', async () => {
    const res = await app.http('GET', `/usage/bases/${base.id}/snapshots`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['baseId', 'days', 'nextCursor']);
    expect(res.body.baseId).toBe(base.baseId);
    expect(datesOf(res.body)).toEqual(days.slice(0, 30));
    expect(res.body.nextCursor).toBe(days[29]);
    const day = res.body.days[1];
    expect(day).toEqual({
      date: days[1],
      tables: [
        { tableId: 'tblAAAAAAAAAAAAAA', tableName: 'A', recordCount: 1, storageBytes: 3_000_000_000, fileCount: 2 },
        { tableId: 'tblBBBBBBBBBBBBBB', tableName: 'B', recordCount: 1, storageBytes: 0, fileCount: 0 },
      ],
      totals: { recordCount: 2, storageBytes: 3_000_000_000, fileCount: 2, tableCount: 2 },
    });
  });

  it('pages with nextCursor in the query, and leaves nextCursor out of the last page', async () => {
    const year = await app.http('GET', `/usage/bases/${base.id}/snapshots?limit=365`);
    expect(datesOf(year.body)).toEqual(days.slice(0, 365));
    const rest = await app.http('GET', `/usage/bases/${base.id}/snapshots?limit=365&cursor=${year.body.nextCursor}`);
    expect(rest.status).toBe(200);
    expect(datesOf(rest.body)).toEqual(days.slice(365));
    expect(rest.body).not.toHaveProperty('nextCursor');
    const empty = await app.http('GET', `/usage/bases/${base.id}/snapshots?from=2020-01-01&to=2020-12-31`);
    expect(empty.body).toEqual({ baseId: base.baseId, days: [] });
  });

  it('answers a refused query with 400 invalid_request naming the query parameter', async () => {
    const res = await app.http('GET', `/usage/bases/${base.id}/snapshots?limit=366`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'query.limit: must be a whole number from 1 to 365', code: 'invalid_request' });
  });

  it('answers 404 to another account', async () => {
    const res = await app.other.http('GET', `/usage/bases/${base.id}/snapshots`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('GET /usage/bases/{id}/snapshots/latest', () => {
  it('returns the newest day', async () => {
    const res = await app.http('GET', `/usage/bases/${base.id}/snapshots/latest`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['baseId', 'day']);
    expect(res.body.baseId).toBe(base.baseId);
    expect(res.body.day.date).toBe(days[0]);
    expect(Object.keys(res.body.day)).toEqual(['date', 'tables', 'totals']);
  });

  it('returns null before the first count', async () => {
    const { http } = await app.newAccount();
    const fresh = await trackBase(http, DEMO_BASES.changeLog);
    const res = await http('GET', `/usage/bases/${fresh.id}/snapshots/latest`);
    expect(res.body).toEqual({ baseId: fresh.baseId, day: null });
  });

  it('answers 404 to another account', async () => {
    expect((await app.other.http('GET', `/usage/bases/${base.id}/snapshots/latest`)).status).toBe(404);
  });
});

describe('snapshot responses are cached per snapshot version', () => {
  it('answers a matching If-None-Match with 304, and a new count with a new body', async () => {
    const { http } = await app.newAccount();
    const tracked = await trackBase(http, DEMO_BASES.marketing);
    await app.running.services.snapshots.record(tracked.id, '2026-01-01', [], new Date());
    const first = await http('GET', `/usage/bases/${tracked.id}/snapshots`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await http('GET', `/usage/bases/${tracked.id}/snapshots`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');

    await app.running.services.snapshots.record(tracked.id, '2026-01-02', [], new Date());
    const fresh = await http('GET', `/usage/bases/${tracked.id}/snapshots`, { headers: { 'if-none-match': etag } });
    expect(fresh.status).toBe(200);
    expect(fresh.body.days.map((d: { date: string }) => d.date)).toEqual(['2026-01-02', '2026-01-01']);
    expect(fresh.headers.get('etag')).not.toBe(etag);
    const latest = await http('GET', `/usage/bases/${tracked.id}/snapshots/latest`);
    expect(latest.body.day.date).toBe('2026-01-02');
  });

  it('sends large pages gzip-compressed to clients that accept it, and plain to those that do not', async () => {
    const url = `${app.url}/usage/bases/${base.id}/snapshots?limit=365`;
    const headers = { authorization: `Bearer ${app.apiKey}` };
    const gzipped = await fetch(url, { headers: { ...headers, 'accept-encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    const plain = await fetch(url, { headers: { ...headers, 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await gzipped.json()).toEqual(await plain.json());
  });

  it('never serves one account’s cached page to another', async () => {
    await app.http('GET', `/usage/bases/${base.id}/snapshots`);
    expect((await app.other.http('GET', `/usage/bases/${base.id}/snapshots`)).status).toBe(404);
  });
});
