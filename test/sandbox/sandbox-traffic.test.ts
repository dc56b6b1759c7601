import { describe, expect, it } from 'vitest';
import { DEMO_BASE_NAMES, type FaultSettings } from '../../src/sandbox/index.js';
import { baseIdByName, startSandbox, type SandboxHarness } from './sandbox-harness.js';

const RATE_LIMIT_MESSAGE = 'Rate limit exceeded. Please try again later';

async function withSandbox(options: Parameters<typeof startSandbox>[0], run: (harness: SandboxHarness) => Promise<void>) {
  const harness = await startSandbox(options);
  try {
    await run(harness);
  } finally {
    await harness.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sandbox authentication', () => {
  it('answers 401 AUTHENTICATION_REQUIRED without the bearer token', () =>
    withSandbox({}, async (harness) => {
      const expected = { error: { type: 'AUTHENTICATION_REQUIRED', message: 'Authentication required' } };
      for (const token of [null, 'wrong']) {
        const response = await harness.call('GET', '/v0/meta/bases', { token });
        expect(response.status).toBe(401);
        expect(response.body).toEqual(expected);
      }
      expect((await harness.call('GET', '/_control/faults', { token: null })).status).toBe(401);
      expect((await harness.call('GET', '/v0/meta/bases', { headers: { authorization: 'sandbox-test-token' }, token: null })).status).toBe(
        401,
      );
    }));
});

describe('sandbox rate limit', () => {
  it('refuses the 6th request within a second and locks the base out, other bases unaffected', () =>
    withSandbox({ rateLimitPerSecond: 5, lockoutMs: 300 }, async (harness) => {
      const catalog = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.catalog);
      const marketing = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.marketing);
      const list = (baseId: string, table: string) => harness.call('GET', `/v0/${baseId}/${table}?pageSize=1`);

      for (let request = 0; request < 5; request++) expect((await list(catalog, 'Products')).status).toBe(200);
      const refused = await list(catalog, 'Orders');
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: { type: 'RATE_LIMIT_REACHED', message: RATE_LIMIT_MESSAGE } });
      expect((await harness.call('GET', `/v0/meta/bases/${catalog}/tables`)).status).toBe(429);
      expect((await list(marketing, 'Assets')).status).toBe(200);

      await sleep(350);
      expect((await list(catalog, 'Products')).status).toBe(200);
      expect(harness.sandbox.stats.rateLimited).toBe(2);
      expect(harness.sandbox.stats.byBase.get(catalog)).toEqual({ requests: 8, rateLimited: 2 });
      expect(harness.sandbox.stats.byBase.get(marketing)).toEqual({ requests: 1, rateLimited: 0 });
    }));

  it('sends the observed-live errors body when asked to', () =>
    withSandbox({ rateLimitPerSecond: 1, lockoutMs: 200 }, async (harness) => {
      await harness.call('PUT', '/_control/faults', { body: { rateLimitBody: 'errors' } });
      const baseId = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.catalog);
      expect((await harness.call('GET', `/v0/${baseId}/Products`)).status).toBe(200);
      const refused = await harness.call<unknown>('GET', `/v0/${baseId}/Products`);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ errors: [{ error: 'RATE_LIMIT_REACHED', message: RATE_LIMIT_MESSAGE }] });
    }));

  it('limits list-bases to 50 requests per second per token', () =>
    withSandbox({}, async (harness) => {
      const statuses: number[] = [];
      for (let request = 0; request < 51; request++) statuses.push((await harness.call('GET', '/v0/meta/bases')).status);
      expect(statuses.slice(0, 50).every((status) => status === 200)).toBe(true);
      expect(statuses[50]).toBe(429);
    }));

  it('lifts lock-outs when the faults are reset', () =>
    withSandbox({ rateLimitPerSecond: 1, lockoutMs: 60_000 }, async (harness) => {
      const baseId = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.catalog);
      await harness.call('GET', `/v0/${baseId}/Products`);
      expect((await harness.call('GET', `/v0/${baseId}/Products`)).status).toBe(429);
      await harness.call('DELETE', '/_control/faults');
      expect((await harness.call('GET', `/v0/${baseId}/Products`)).status).toBe(200);
    }));
});

describe('sandbox fault injection', () => {
  it('reads, merges, validates and resets the fault settings', () =>
    withSandbox({ rateLimitPerSecond: 5, lockoutMs: 30_000 }, async (harness) => {
      const defaults = await harness.call<FaultSettings>('GET', '/_control/faults');
      expect(defaults.body).toEqual({
        errorRate: 0,
        errorStatus: 503,
        latencyMs: 0,
        rateLimitPerSecond: 5,
        userRateLimitPerSecond: 50,
        lockoutMs: 30_000,
        rateLimitBody: 'error',
        iteratorTtlMs: 300_000,
      });
      const merged = await harness.call<FaultSettings>('PUT', '/_control/faults', { body: { latencyMs: 5, errorStatus: 500 } });
      expect(merged.body).toEqual({ ...defaults.body, latencyMs: 5, errorStatus: 500 });

      const invalid = await harness.call('PUT', '/_control/faults', { body: { errorRate: 2 } });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.message).toContain('errorRate');
      expect((await harness.call('PUT', '/_control/faults', { body: { errorStatus: 418 } })).status).toBe(400);

      expect((await harness.call<FaultSettings>('DELETE', '/_control/faults')).body).toEqual(defaults.body);
      expect(harness.sandbox.faults.get()).toEqual(defaults.body);
    }));

  it('fails every request with RETRIABLE_ERROR at errorRate 1, but never the control routes', () =>
    withSandbox({}, async (harness) => {
      await harness.call('PUT', '/_control/faults', { body: { errorRate: 1, errorStatus: 503 } });
      const failed = await harness.call('GET', '/v0/meta/bases');
      expect(failed.status).toBe(503);
      expect(failed.body.error.type).toBe('RETRIABLE_ERROR');
      expect(failed.body.error.message).toMatch(/safe to retry the request/);
      expect((await harness.call('GET', '/_control/faults')).status).toBe(200);
      expect(harness.sandbox.stats.faultsInjected).toBe(1);

      await harness.call('PUT', '/_control/faults', { body: { errorStatus: 429 } });
      const limited = await harness.call('GET', '/v0/meta/bases');
      expect(limited.body).toEqual({ error: { type: 'RATE_LIMIT_REACHED', message: RATE_LIMIT_MESSAGE } });

      await harness.call('PUT', '/_control/faults', { body: { errorStatus: 500 } });
      expect((await harness.call('GET', '/v0/meta/bases')).body.error.type).toBe('SERVER_ERROR');

      await harness.call('PUT', '/_control/faults', { body: { errorRate: 0 } });
      expect((await harness.call('GET', '/v0/meta/bases')).status).toBe(200);
    }));

  it('draws errors reproducibly from the seed', async () => {
    const draws = async () => {
      const statuses: number[] = [];
      await withSandbox({ seed: 7 }, async (harness) => {
        harness.sandbox.faults.update({ errorRate: 0.5 });
        for (let request = 0; request < 20; request++) statuses.push((await harness.call('GET', '/v0/meta/bases')).status);
      });
      return statuses;
    };
    const first = await draws();
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await draws()).toEqual(first);
  });

  it('delays requests by latencyMs', () =>
    withSandbox({}, async (harness) => {
      harness.sandbox.faults.update({ latencyMs: 120 });
      const started = performance.now();
      expect((await harness.call('GET', '/v0/meta/bases')).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    }));

  it('makes a large base and reports its totals through the control routes', () =>
    withSandbox({}, async (harness) => {
      const body = { name: 'Wide', tables: 2, recordsPerTable: 150, attachmentsPerRecord: 1, fieldsPerTable: 10 };
      const made = await harness.call<{ id: string; summary: { records: number } }>('POST', '/_control/bases/large', { body });
      expect(made.status).toBe(201);
      expect(made.body.summary.records).toBe(300);
      const schema = await harness.call<{ tables: Array<{ fields: unknown[] }> }>('GET', `/v0/meta/bases/${made.body.id}/tables`);
      expect(schema.body.tables.map((table) => table.fields.length)).toEqual([10, 10]);
      const summary = await harness.call<{ records: number; attachments: number; tables: unknown[] }>(
        'GET',
        `/_control/bases/${made.body.id}/summary`,
      );
      expect(summary.body).toMatchObject({ records: 300, attachments: 300 });
      expect(summary.body.tables).toHaveLength(2);
      expect((await harness.call('POST', '/_control/bases/large', { body: { ...body, fieldsPerTable: 2 } })).status).toBe(422);
    }));
});
