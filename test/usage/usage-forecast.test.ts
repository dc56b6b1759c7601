import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TableCount } from '../../src/entities/index.js';
import { localDay } from '../../src/services/calendar.js';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { createGraphql } from '../graphql/support/graphql-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** GET /usage/bases/{id}/forecast over HTTP and GraphQL: the shape, a 404, GraphQL as REST. The rules: test/services/usage-forecast.service.test.ts. */
describe('usage forecast', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());
  // Each history is a demo base tracked afresh.
  const tracked: string[] = [];
  afterEach(async () => {
    for (const id of tracked.splice(0)) await app.http('DELETE', `/usage/bases/${id}`);
  });

  const DAY = 86_400_000;
  const today = () => localDay(new Date(), 'UTC');
  const dayOffset = (days: number) => new Date(Date.parse(`${today()}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

  /** A base with `records(i)` records and `bytes(i)` bytes on day i of the last `days` days (i = days − 1 is today). */
  async function baseWithHistory(days: number, records: (i: number) => number, bytes: (i: number) => number = () => 0) {
    const name = [DEMO_BASES.catalog, DEMO_BASES.marketing, DEMO_BASES.changeLog][tracked.length]!;
    const base = await trackBase(app.http, name, { timezone: 'UTC' });
    tracked.push(base.id);
    for (let i = 0; i < days; i += 1) {
      const table: TableCount = {
        tableId: 'tblAAAAAAAAAAAAAA',
        tableName: 'T',
        recordCount: records(i),
        storageBytes: bytes(i),
        fileCount: 0,
      };
      await app.running.services.snapshots.record(base.id, dayOffset(i - days + 1), [table], new Date());
    }
    return base;
  }
  const forecastOf = async (id: string) => {
    const res = await app.http('GET', `/usage/bases/${id}/forecast`);
    expect(res.status).toBe(200);
    return res.body as { baseId: string; forecasts: Array<Record<string, unknown>> };
  };

  it('answers each limit’s forecast in the documented shape, and another account’s base with 404', async () => {
    const base = await baseWithHistory(20, (i) => 1_000 + 100 * i);
    await app.http('PUT', `/usage/bases/${base.id}/limits`, { body: { recordLimit: 5_000 } });
    expect(await forecastOf(base.id)).toEqual({
      baseId: base.baseId,
      forecasts: [
        {
          metric: 'records',
          limit: 5_000,
          current: 2_900,
          dailyGrowth: 100,
          reachesOn: dayOffset(21),
          earliest: expect.any(String),
          latest: expect.any(String),
          status: 'ok',
        },
        {
          metric: 'storage',
          limit: null,
          current: 0,
          dailyGrowth: 0,
          reachesOn: null,
          earliest: null,
          latest: null,
          status: 'no_limit',
        },
      ],
    });
    const res = await app.other.http('GET', `/usage/bases/${base.id}/forecast`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('is a field of UsageBase over GraphQL, as REST answers it', async () => {
    const base = await baseWithHistory(10, (i) => 100 + 10 * i);
    await app.http('PUT', `/usage/bases/${base.id}/limits`, { body: { plan: 'free' } });
    const graphql = createGraphql(app.url, app.apiKey);
    const res = await graphql(
      `query($id: ID!) { usageBase(id: $id) { forecast { metric limit current dailyGrowth reachesOn earliest latest status } } }`,
      { id: base.id },
    );
    const rest = (await forecastOf(base.id)).forecasts;
    expect(res.data.usageBase.forecast).toEqual(
      rest.map((f) => ({ ...f, metric: String(f.metric).toUpperCase(), status: String(f.status).toUpperCase() })),
    );
    expect(res.data.usageBase.forecast[0]).toMatchObject({ metric: 'RECORDS', status: 'OK', reachesOn: dayOffset(81) });
    const used = await graphql(`query($id: ID!) { usageBase(id: $id) { forecast { metric percentUsed } } }`, { id: base.id });
    // 190 of the free plan's 1,000 records; storage 0 of 1 GiB.
    expect(used.data.usageBase.forecast).toEqual([
      { metric: 'RECORDS', percentUsed: 19 },
      { metric: 'STORAGE', percentUsed: 0 },
    ]);
  });
});
