import { beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_EVENT_TYPES, CHANGE_SOURCES, type ChangeEventType, type ChangeSource } from '../../src/services/audit/change-event.js';
import { changeQueryInput } from '../../src/services/audit/change-query.input.js';
import { monitoringConfigInput } from '../../src/services/monitoring-config.input.js';
import { createRandom, pick } from '../../src/sandbox/prng.js';
import { appendChanges, newestFirst, type LoggedChange, type SeedChange } from '../support/change-entries.js';
import { DEMO_BASES } from '../support/factories.js';
import { asQuery, parsed, refusal } from '../support/service-calls.js';
import { serviceDatabases, servicesOn } from '../support/test-services.js';

/**
 * The change list's rules (ChangeQueryService.list behind MonitoringConfigService.logTarget), without HTTP, on SQLite
 * and, when it answers, on PostgreSQL ($n parameters, row-value keyset bounds, no index hints).
 */

const TABLES = ['tblTABLE00000000A', 'tblTABLE00000000B', 'tblTABLE00000000C', 'tblTABLE00000000D'];
const USERS = ['ada@example.com', 'bob@example.com', 'cy@example.com', null];
const FIELDS = ['fldFIELD0000000A', 'fldFIELD0000000B', 'fldFIELD0000000C', 'fldFIELD0000000D', 'fldFIELD0000000E'];
const RECORDS = ['recRECORD000000A', 'recRECORD000000B', 'recRECORD000000C', 'recRECORD000000D', 'recRECORD000000E', 'recRECORD000000F'];

for (const { name, database } of await serviceDatabases()) {
  const t = servicesOn(database);

  beforeAll(async () => {
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
  });

  async function newConfig(): Promise<{ id: string }> {
    const input = parsed(monitoringConfigInput.create, { baseId: t.baseId(DEMO_BASES.catalog), monitoringBaseId: t.newLogBase() });
    return t.services.monitoringConfigs.create(t.accountId, input);
  }

  const append = (configId: string, changes: SeedChange[]) => appendChanges(t.dataSource, configId, changes);

  /** One page, the query given as a URL carries it and parsed by the list's own input schema. */
  async function page(configId: string, query: Record<string, string | number> = {}, accountId = t.accountId) {
    const config = await t.services.monitoringConfigs.logTarget(accountId, configId);
    const { records, nextCursor } = await t.services.changeQueries.list(config, parsed(changeQueryInput.list, asQuery(query)));
    return { records: JSON.parse(records.text) as LoggedChange[], nextCursor };
  }

  /** Every page of a query, following nextCursor; `between` runs after each page (e.g. to log newer changes). */
  async function walk(configId: string, query: Record<string, string | number>, between?: () => Promise<void>) {
    const seen: LoggedChange[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await page(configId, { ...query, ...(cursor ? { cursor } : {}) });
      seen.push(...answer.records);
      cursor = answer.nextCursor;
      pages++;
      if (cursor) expect(answer.records).toHaveLength(Number(query.limit ?? 50));
      await between?.();
    } while (cursor);
    return { seen, pages };
  }

  /** Minutes after an instant, as stored ISO text. */
  const minutesAfter = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

  describe(`ChangeQueryService.list on ${name}`, () => {
    it('is empty, without nextCursor, for a config with no changes; other configs’ changes never show', async () => {
      const empty = await newConfig();
      const other = await newConfig();
      await append(other.id, [{ occurredAt: '2026-05-02T00:00:00.000Z' }]);
      const answer = await page(empty.id);
      expect(answer.records).toEqual([]);
      expect(answer.nextCursor).toBeUndefined();
    });

    it('orders newest first, equal times by id descending, and gives nextCursor only when another page exists', async () => {
      const config = await newConfig();
      const at = '2026-05-03T12:00:00.000Z';
      // Logged out of time order, with a burst of five sharing one instant that the page boundary cuts.
      const logged = await append(config.id, [
        { occurredAt: minutesAfter(at, 5) },
        ...Array.from({ length: 5 }, () => ({ occurredAt: at })),
        { occurredAt: minutesAfter(at, -5) },
        { occurredAt: minutesAfter(at, 10) },
        { occurredAt: minutesAfter(at, 3) },
        { occurredAt: minutesAfter(at, 2) },
        ...Array.from({ length: 4 }, (_, i) => ({ occurredAt: minutesAfter(at, -10 - i) })),
      ]);
      const expected = newestFirst(logged).map((c) => c.id);
      expect(logged).toHaveLength(14);
      expect(
        newestFirst(logged)
          .map((c) => c.occurredAt)
          .slice(4, 9),
      ).toEqual(Array(5).fill(at));

      const first = await page(config.id, { limit: 7 });
      expect(first.records.map((r) => r.id)).toEqual(expected.slice(0, 7));
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await page(config.id, { limit: 7, cursor: first.nextCursor! });
      expect(second.records.map((r) => r.id)).toEqual(expected.slice(7));
      // Exactly `limit` left: no cursor to an empty page.
      expect(second.nextCursor).toBeUndefined();

      const all = await page(config.id);
      expect(all.records.map((r) => r.id)).toEqual(expected);
      expect(all.nextCursor).toBeUndefined();
    });

    it('applies limit: default 50, at most 100', async () => {
      const config = await newConfig();
      await append(
        config.id,
        Array.from({ length: 120 }, (_, i) => ({ occurredAt: minutesAfter('2026-05-04T00:00:00.000Z', i) })),
      );
      expect((await page(config.id)).records).toHaveLength(50);
      expect((await page(config.id, { limit: 100 })).records).toHaveLength(100);
      const one = await page(config.id, { limit: 1 });
      expect(one.records.map((r) => r.occurredAt)).toEqual([minutesAfter('2026-05-04T00:00:00.000Z', 119)]);
    });

    describe('filters, alone and combined, over 1,000 entries', () => {
      let configId: string;
      let logged: LoggedChange[];

      beforeAll(async () => {
        configId = (await newConfig()).id;
        const random = createRandom(4);
        const changes: SeedChange[] = [];
        let time = Date.parse('2026-01-01T00:00:00.000Z');
        for (let i = 0; i < 1_000; i++) {
          if (random() < 0.8) time += Math.floor(random() * 3_600_000);
          const eventType: ChangeEventType = random() < 0.6 ? 'record_update' : pick(random, CHANGE_EVENT_TYPES);
          const column = eventType.startsWith('column_');
          const fieldIds =
            eventType === 'record_update'
              ? [...new Set([pick(random, FIELDS), pick(random, FIELDS)])]
              : column
                ? [pick(random, FIELDS)]
                : [];
          const source: ChangeSource = random() < 0.7 ? 'client' : pick(random, CHANGE_SOURCES);
          changes.push({
            occurredAt: new Date(time).toISOString(),
            eventType,
            // Skewed, so a dense and a sparse filter meet in one query.
            tableId: random() < 0.6 ? TABLES[0] : pick(random, TABLES),
            recordId: eventType.startsWith('table_') ? null : column ? fieldIds[0] : pick(random, RECORDS),
            fieldIds,
            source,
            userEmail: pick(random, USERS),
            // Values as logged (JSON text, spliced into the page as it is), on updates: the pages must carry them exactly.
            ...(eventType === 'record_update'
              ? { before: { [fieldIds[0]!]: i, note: 'é "quoted"' }, after: { [fieldIds[0]!]: [i, { id: 'selX' }] } }
              : {}),
          });
        }
        logged = await append(configId, changes);
      });

      const cases: Array<Record<string, string>> = [
        { eventType: 'record_update' },
        { eventType: 'table_delete' },
        { kind: 'schema' },
        { kind: 'record' },
        { tableId: TABLES[0] },
        { tableId: TABLES[3] },
        { recordId: RECORDS[2] },
        { recordId: FIELDS[1] },
        { source: 'client' },
        { source: 'sync' },
        { userEmail: 'bob@example.com' },
        { fieldId: FIELDS[0] },
        { tableId: 'tblNOSUCHTABLE000' },
        { eventType: 'record_update', tableId: TABLES[0], userEmail: 'ada@example.com' },
        { eventType: 'record_update', tableId: TABLES[2], userEmail: 'cy@example.com', source: 'client' },
        { eventType: 'column_delete', tableId: TABLES[0] },
        { kind: 'record', eventType: 'table_create' },
        { recordId: RECORDS[0], eventType: 'record_update' },
        { fieldId: FIELDS[1], eventType: 'record_update', userEmail: 'ada@example.com' },
        { fieldId: FIELDS[2], recordId: RECORDS[1] },
        { fieldId: FIELDS[3], tableId: TABLES[0], source: 'client' },
        {
          tableId: TABLES[0],
          kind: 'record',
          source: 'client',
          userEmail: 'ada@example.com',
          eventType: 'record_update',
          fieldId: FIELDS[4],
        },
      ];

      const matches = (change: LoggedChange, filter: Record<string, string>) =>
        Object.entries(filter).every(([name, value]) =>
          name === 'fieldId' ? change.fieldIds.includes(value) : (change as unknown as Record<string, unknown>)[name] === value,
        );

      it.each(cases)('%o: every match once, newest first', async (filter) => {
        const expected = newestFirst(logged.filter((c) => matches(c, filter)));
        const { seen } = await walk(configId, { ...filter, limit: 100 });
        expect(seen.map((c) => c.id)).toEqual(expected.map((c) => c.id));
        expect(seen).toEqual(expected);
      });

      it('has filters that select something and filters that select nothing among the cases', () => {
        const sizes = cases.map((filter) => logged.filter((c) => matches(c, filter)).length);
        expect(sizes.filter((n) => n > 100).length).toBeGreaterThanOrEqual(4);
        expect(sizes.filter((n) => n > 0 && n <= 100).length).toBeGreaterThanOrEqual(8);
        expect(sizes).toContain(0);
      });

      it('pages through a filter with limit 7 and, combined with days, keeps to them', async () => {
        const filter = { tableId: TABLES[0], eventType: 'record_update' };
        const { seen } = await walk(configId, { ...filter, limit: 7 });
        expect(seen.map((c) => c.id)).toEqual(newestFirst(logged.filter((c) => matches(c, filter))).map((c) => c.id));

        const days = { from: '2026-01-05', to: '2026-01-09' };
        const inDays = (c: LoggedChange) => c.occurredAt >= '2026-01-05T00:00:00.000Z' && c.occurredAt < '2026-01-10T00:00:00.000Z';
        const bounded = await walk(configId, { ...filter, ...days, limit: 7 });
        const expected = newestFirst(logged.filter((c) => matches(c, filter) && inDays(c)));
        expect(expected.length).toBeGreaterThan(7);
        expect(bounded.seen.map((c) => c.id)).toEqual(expected.map((c) => c.id));
      });
    });

    it('reads from/to as whole days in the timezone, across both DST switches of America/New_York', async () => {
      const config = await newConfig();
      const times = [
        // 2026-03-08 in New York: 05:00Z to 04:00Z next day (23 hours; 02:00 EST jumps to 03:00 EDT at 07:00Z).
        '2026-03-08T04:59:59.999Z',
        '2026-03-08T05:00:00.000Z',
        '2026-03-08T07:30:00.000Z',
        '2026-03-09T03:59:59.999Z',
        '2026-03-09T04:00:00.000Z',
        // 2026-11-01 in New York: 04:00Z to 05:00Z next day (25 hours; 01:00–02:00 happens twice).
        '2026-11-01T03:59:59.999Z',
        '2026-11-01T04:00:00.000Z',
        '2026-11-01T05:30:00.000Z',
        '2026-11-01T06:30:00.000Z',
        '2026-11-02T04:59:59.999Z',
        '2026-11-02T05:00:00.000Z',
      ];
      await append(
        config.id,
        times.map((occurredAt) => ({ occurredAt })),
      );
      const occurred = async (query: Record<string, string>) =>
        (await page(config.id, { ...query, limit: 100 })).records.map((r) => r.occurredAt).reverse();
      const ny = { timezone: 'America/New_York' };
      expect(await occurred({ ...ny, from: '2026-03-08', to: '2026-03-08' })).toEqual([
        '2026-03-08T05:00:00.000Z',
        '2026-03-08T07:30:00.000Z',
        '2026-03-09T03:59:59.999Z',
      ]);
      expect(await occurred({ ...ny, from: '2026-11-01', to: '2026-11-01' })).toEqual([
        '2026-11-01T04:00:00.000Z',
        '2026-11-01T05:30:00.000Z',
        '2026-11-01T06:30:00.000Z',
        '2026-11-02T04:59:59.999Z',
      ]);
      expect(await occurred({ ...ny, from: '2026-03-09', to: '2026-10-31' })).toEqual([
        '2026-03-09T04:00:00.000Z',
        '2026-11-01T03:59:59.999Z',
      ]);
      expect(await occurred({ ...ny, to: '2026-03-07' })).toEqual(['2026-03-08T04:59:59.999Z']);
      expect(await occurred({ ...ny, from: '2026-11-02' })).toEqual(['2026-11-02T05:00:00.000Z']);
      // The same days in UTC (the default, any spelling) are other instants.
      const utcDay = ['2026-03-08T04:59:59.999Z', '2026-03-08T05:00:00.000Z', '2026-03-08T07:30:00.000Z'];
      expect(await occurred({ from: '2026-03-08', to: '2026-03-08' })).toEqual(utcDay);
      expect(await occurred({ from: '2026-03-08', to: '2026-03-08', timezone: 'utc' })).toEqual(utcDay);
      expect(await occurred({ from: '2026-03-08', to: '2026-03-08', timezone: 'UTC' })).toEqual(utcDay);
      // A zone east of UTC moves the day the other way.
      expect(await occurred({ from: '2026-11-02', to: '2026-11-02', timezone: 'Asia/Tokyo' })).toEqual([
        '2026-11-02T04:59:59.999Z',
        '2026-11-02T05:00:00.000Z',
      ]);
    });

    it('walks 1,000 entries with limit 7, meeting each exactly once, newest first, while new changes keep arriving', async () => {
      const config = await newConfig();
      const start = Date.parse('2026-02-01T00:00:00.000Z');
      const random = createRandom(7);
      let time = start;
      const original = await append(
        config.id,
        Array.from({ length: 1_000 }, () => {
          // About a third share their instant with the entry before: ties must be broken by id across pages.
          if (random() > 0.35) time += 1 + Math.floor(random() * 60_000);
          return { occurredAt: new Date(time).toISOString() };
        }),
      );
      let arrivals = 0;
      const { seen, pages } = await walk(config.id, { limit: 7 }, async () => {
        // Newer changes, and one as old as the newest original entry (same instant, higher id), after every page.
        arrivals++;
        await append(config.id, [
          { occurredAt: new Date(time + arrivals * 1_000).toISOString() },
          { occurredAt: new Date(time).toISOString() },
        ]);
      });
      expect(pages).toBe(Math.ceil(1_000 / 7));
      expect(seen.map((c) => c.id)).toEqual(newestFirst(original).map((c) => c.id));
      expect(new Set(seen.map((c) => c.id)).size).toBe(1_000);
      // The arrivals were there all along for a fresh reader.
      expect((await walk(config.id, { limit: 100 })).seen).toHaveLength(1_000 + 2 * arrivals);
    });

    describe('refuses bad input with invalid_request', () => {
      let configId: string;
      let cursor: string;

      beforeAll(async () => {
        configId = (await newConfig()).id;
        await append(configId, [{ occurredAt: '2026-06-01T00:00:00.000Z' }, { occurredAt: '2026-06-02T00:00:00.000Z' }]);
        cursor = (await page(configId, { limit: 1 })).nextCursor!;
        expect(cursor).toEqual(expect.any(String));
      });

      it.each([
        { from: '2026-02-30' },
        { to: '2026-1-1' },
        { from: '2026-06-01T00:00:00Z' },
        { from: '2026-06-02', to: '2026-06-01' },
        { timezone: 'Mars/Olympus' },
        { timezone: '+05:00' },
        { timezone: '' },
        { limit: 0 },
        { limit: 101 },
        { limit: 1.5 },
        { limit: 'ten' },
        { eventType: 'record_upsert' },
        { kind: 'cell' },
        { source: 'browser' },
        { tableId: '' },
        { userEmail: '' },
        { cursor: '' },
        { cursor: 'not-a-cursor' },
        { cursor: '2026-06-01T00:00:00.000Z' },
      ] as Array<Record<string, string | number>>)('%o', async (query) => {
        expect(await refusal(() => page(configId, query))).toBe('invalid_request');
      });

      it('an altered cursor, and a cursor of another config of the same account', async () => {
        expect((await page(configId, { limit: 1, cursor })).records).toHaveLength(1);
        for (let i = 0; i < cursor.length; i++) {
          const flipped = cursor.slice(0, i) + (cursor[i] === 'A' ? 'B' : 'A') + cursor.slice(i + 1);
          expect(await refusal(() => page(configId, { cursor: flipped })), `cursor altered at ${i}`).toBe('invalid_request');
        }
        const other = await newConfig();
        await append(other.id, [{ occurredAt: '2026-06-01T00:00:00.000Z' }, { occurredAt: '2026-06-02T00:00:00.000Z' }]);
        expect(await refusal(() => page(other.id, { cursor }))).toBe('invalid_request');
      });
    });

    it('is not_found for another account’s config, an unknown id and a malformed id', async () => {
      const config = await newConfig();
      await append(config.id, [{ occurredAt: '2026-06-03T00:00:00.000Z' }]);
      for (const [accountId, id] of [
        [t.other.accountId, config.id],
        [t.accountId, '00000000-0000-4000-8000-000000000000'],
        [t.accountId, 'not-a-uuid'],
      ] as const) {
        expect(await refusal(() => page(id, {}, accountId))).toBe('not_found');
      }
      expect((await page(config.id)).records).toHaveLength(1);
    });
  });
}
