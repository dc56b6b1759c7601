import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { codesOf, createGraphql, type Graphql } from './support/graphql-client.js';

let app: TestApp;
let graphql: Graphql;
beforeAll(async () => {
  app = await startTestApp();
  graphql = createGraphql(app.url, app.apiKey);
});
afterAll(() => app?.close());

const API_CALLS =
  'query($month: String) { apiCalls(month: $month) { month total projected byPurpose { count audit webhooks helpers } byBase { baseId calls } } }';

describe('apiCalls over GraphQL', () => {
  it('answers what REST GET /usage/api-calls does, and a new count at once', async () => {
    const base = await trackBase(app.http, DEMO_BASES.marketing);
    const first = (await graphql(API_CALLS)).data.apiCalls;
    expect((await app.http('POST', `/usage/bases/${base.id}/run`)).status).toBe(200);

    const { projected, ...calls } = (await graphql(API_CALLS)).data.apiCalls;
    const { projected: restProjected, ...rest } = (await app.http('GET', '/usage/api-calls')).body;
    expect(calls).toEqual(rest);
    expect(projected).toBeGreaterThanOrEqual(calls.total);
    expect(restProjected).toBeGreaterThanOrEqual(calls.total);
    // Not a response kept from before the count: the ledger is no database version's.
    expect(calls.byPurpose.count).toBeGreaterThan(first.byPurpose.count);
    expect(calls.byBase.find((b: { baseId: string }) => b.baseId === base.baseId).calls).toBeGreaterThan(0);

    const past = (await graphql(API_CALLS, { month: '2021-06' })).data.apiCalls;
    expect(past).toEqual({
      month: '2021-06',
      total: 0,
      projected: 0,
      byPurpose: { count: 0, audit: 0, webhooks: 0, helpers: 0 },
      byBase: [],
    });
  });

  it('refuses what REST refuses, with the same code', async () => {
    for (const month of ['2026-00', '2026/01', '9999-12']) {
      expect(codesOf(await graphql(API_CALLS, { month })), month).toEqual(['invalid_request']);
    }
    expect(codesOf(await graphql(API_CALLS, {}, { key: null }))).toEqual(['unauthorized']);
  });
});
