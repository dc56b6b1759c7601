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

const LIMITS = 'plan recordLimit storageLimitBytes thresholds';
const SET = `mutation($input: SetUsageLimitsInput!) { setUsageLimits(input: $input) { clientMutationId usageBase { restId } limits { ${LIMITS} } } }`;

describe('usage limits over GraphQL', () => {
  it('reads and sets what REST /usage/bases/{id}/limits does, with the plans in capitals', async () => {
    const base = await trackBase(app.http, DEMO_BASES.catalog);
    const read = async () =>
      (await graphql(`query($id: ID!) { usageBase(id: $id) { limits { ${LIMITS} } } }`, { id: base.id })).data.usageBase.limits;
    expect(await read()).toEqual({ plan: null, recordLimit: null, storageLimitBytes: null, thresholds: [80, 95, 100] });

    const business = await graphql(SET, { input: { id: base.id, plan: 'BUSINESS', clientMutationId: 'm1' } });
    expect(business.data.setUsageLimits).toEqual({
      clientMutationId: 'm1',
      usageBase: { restId: base.id },
      limits: { plan: 'BUSINESS', recordLimit: 125_000, storageLimitBytes: 100 * 1024 ** 3, thresholds: [80, 95, 100] },
    });
    expect((await app.http('GET', `/usage/bases/${base.id}/limits`)).body.limits.plan).toBe('business');

    await graphql(SET, { input: { id: base.id, storageLimitBytes: 5_000_000, thresholds: [90, 70] } });
    expect(await read()).toEqual({ plan: 'CUSTOM', recordLimit: 125_000, storageLimitBytes: 5_000_000, thresholds: [70, 90] });
    // null clears, left out keeps.
    await graphql(SET, { input: { id: base.id, plan: null } });
    expect(await read()).toEqual({ plan: null, recordLimit: null, storageLimitBytes: null, thresholds: [70, 90] });
  });

  it('refuses what REST refuses, with the same code', async () => {
    const base = await trackBase(app.http, DEMO_BASES.marketing);
    const refused = await graphql(SET, { input: { id: base.id, plan: 'TEAM', recordLimit: 10 } });
    expect(codesOf(refused)).toEqual(['invalid_request']);
    const repeated = await graphql(SET, { input: { id: base.id, thresholds: [80, 80] } });
    expect(codesOf(repeated)).toEqual(['invalid_request']);
    const foreign = await createGraphql(app.url, app.other.apiKey)(SET, { input: { id: base.id, plan: 'FREE' } });
    expect(codesOf(foreign)).toEqual(['not_found']);
  });
});
