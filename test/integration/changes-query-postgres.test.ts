import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_URL, admin } from '../support/postgres.js';
import { createRandom, pick } from '../../src/sandbox/prng.js';
import { appendChanges, newestFirst, type LoggedChange, type SeedChange } from '../support/change-entries.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The changes query's SQL on PostgreSQL ($n parameters, row-value keyset bounds, no index hints), as postgres.test.ts. */
const database = `basewatch_test_${randomBytes(4).toString('hex')}`;

const available = await admin('SELECT 1');
let app: TestApp;

describe.skipIf(!available)(`GET …/changes on PostgreSQL (${ADMIN_URL.replace(/\/\/[^@]*@/, '//')})`, () => {
  let configId: string;
  let logged: LoggedChange[];

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    app = await startTestApp({ DATABASE_URL: url.toString() });
    app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
    const created = await app.http('POST', '/monitoring-config', {
      body: {
        baseId: await upstreamBaseId(app.http, DEMO_BASES.catalog),
        monitoringBaseId: await upstreamBaseId(app.http, DEMO_BASES.changeLog),
      },
    });
    expect(created.status).toBe(201);
    configId = created.body.config.id;
    const random = createRandom(11);
    let time = Date.parse('2026-03-07T00:00:00.000Z');
    const changes: SeedChange[] = Array.from({ length: 600 }, () => {
      if (random() < 0.7) time += Math.floor(random() * 900_000);
      return {
        occurredAt: new Date(time).toISOString(),
        eventType: random() < 0.7 ? 'record_update' : 'record_create',
        tableId: random() < 0.7 ? 'tblTABLE00000000A' : 'tblTABLE00000000B',
        fieldIds: random() < 0.5 ? ['fldFIELD0000000A'] : ['fldFIELD0000000B', 'fldFIELD0000000C'],
        userEmail: pick(random, ['ada@example.com', 'bob@example.com']),
        before: { fldFIELD0000000A: 1 },
        after: { fldFIELD0000000A: 2 },
      };
    });
    logged = await appendChanges(app.running.services.dataSource, configId, changes);
  });
  afterAll(async () => {
    await app?.close();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  async function walk(query: Record<string, string>) {
    const seen: LoggedChange[] = [];
    let cursor: string | undefined;
    do {
      const params = new URLSearchParams({ ...query, limit: '7', ...(cursor ? { cursor } : {}) });
      const res = await app.http('GET', `/monitoring-config/${configId}/changes?${params}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.records);
      cursor = res.body.nextCursor;
    } while (cursor);
    return seen;
  }

  it.each([
    {},
    { tableId: 'tblTABLE00000000B' },
    { eventType: 'record_update', tableId: 'tblTABLE00000000A', userEmail: 'bob@example.com' },
    { fieldId: 'fldFIELD0000000C', userEmail: 'ada@example.com' },
  ] as Array<Record<string, string>>)('%o: pages meet every match once, newest first, ties by id', async (filter) => {
    const expected = newestFirst(
      logged.filter((c) =>
        Object.entries(filter).every(([name, value]) =>
          name === 'fieldId' ? c.fieldIds.includes(value) : (c as unknown as Record<string, unknown>)[name] === value,
        ),
      ),
    );
    expect(expected.length).toBeGreaterThan(20);
    expect(await walk(filter)).toEqual(expected);
  });

  it('reads days in America/New_York across the March switch', async () => {
    const day = await walk({ from: '2026-03-08', to: '2026-03-08', timezone: 'America/New_York' });
    const expected = newestFirst(
      logged.filter((c) => c.occurredAt >= '2026-03-08T05:00:00.000Z' && c.occurredAt < '2026-03-09T04:00:00.000Z'),
    );
    expect(expected.length).toBeGreaterThan(7);
    expect(day.map((c) => c.id)).toEqual(expected.map((c) => c.id));
  });
});

if (!available) {
  describe('GET …/changes on PostgreSQL', () => {
    it.skip(`skipped: no PostgreSQL server answered at ${ADMIN_URL.replace(/\/\/[^@]*@/, '//')}`, () => undefined);
  });
}
