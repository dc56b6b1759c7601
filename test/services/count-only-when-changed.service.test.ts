import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitoringConfigInput } from '../../src/services/monitoring-config.input.js';
import { usageBaseInput } from '../../src/services/usage-base.input.js';
import { countingInput } from '../../src/services/usage-insight/counting.input.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed, refusal } from '../support/service-calls.js';
import { FAST_UPSTREAM, startTestServices, type TestServices } from '../support/test-services.js';

/**
 * countOnlyWhenChanged against the sandbox, with the real audit watch: the scheduled count of a day without a logged
 * change carries the last full count over and spends no count request; a day with a change counts. On the services
 * (UsageCountingService, UsageScheduleService.runScheduled), without HTTP.
 */
describe('counting only when the base changed', () => {
  let t: TestServices;
  const requestsTo = (baseId: string) => t.sandbox.stats.byBase.get(baseId)?.requests ?? 0;

  beforeAll(async () => {
    t = await startTestServices(FAST_UPSTREAM);
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
  });
  afterAll(() => t?.close());

  const track = (name: string) => t.services.usageBases.create(t.accountId, parsed(usageBaseInput.create, { baseId: t.baseId(name) }));
  const counting = (usageBaseId: string) => t.services.usageCounting.get(t.accountId, usageBaseId);
  const setCounting = (usageBaseId: string, body: Record<string, unknown>) =>
    t.services.usageCounting.update(t.accountId, usageBaseId, parsed(countingInput.update, body));
  const run = (usageBaseId: string) => t.services.usageCounts.count(t.accountId, usageBaseId);
  const scheduled = async (usageBaseId: string) => (await t.services.usageSchedule.runScheduled(usageBaseId)).outcome;
  const newConfig = (body: Record<string, unknown>) =>
    t.services.monitoringConfigs.create(t.accountId, parsed(monitoringConfigInput.create, body));
  const latest = async (usageBaseId: string) => (await t.services.snapshots.list(t.accountId, usageBaseId, { limit: 1 })).days[0]!;
  /** A record added upstream, to the base's first table. */
  const addRecord = (baseId: string) => {
    const [table] = t.sandbox.store.getBase(baseId)!.tables;
    t.sandbox.store.createRecords(baseId, table!.id, [{}]);
  };

  /** Makes every counted day and logged change one day older, and forgets the scheduled runs: the next run is "tomorrow". */
  async function nextDay(usageBaseId: string) {
    const db = t.dataSource;
    const days: Array<{ date: string }> = await db.query('SELECT date FROM usage_snapshot WHERE usage_base_id = ? ORDER BY date', [
      usageBaseId,
    ]);
    for (const { date } of days) {
      const before = new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      await db.query('UPDATE usage_snapshot SET date = ? WHERE usage_base_id = ? AND date = ?', [before, usageBaseId, date]);
    }
    await db.query('DELETE FROM usage_run WHERE usage_base_id = ?', [usageBaseId]);
    // The changes logged so far are a day older too (instants, compared with a count's start).
    const entries: Array<{ id: number; occurred_at: string }> = await db.query('SELECT id, occurred_at FROM change_entry');
    for (const entry of entries) {
      await db.query('UPDATE change_entry SET occurred_at = ? WHERE id = ?', [
        new Date(Date.parse(entry.occurred_at) - 86_400_000).toISOString(),
        entry.id,
      ]);
    }
  }

  it('skips a day without changes, counts a day with one, and reports what it cost and saved', async () => {
    const base = await track(DEMO_BASES.catalog);
    const monitoringBaseId = t.baseId(DEMO_BASES.changeLog);
    expect(await counting(base.id)).toEqual({ countOnlyWhenChanged: false, auditWatched: false, days: [], savedCalls: 0 });
    const config = await newConfig({ baseId: base.baseId, monitoringBaseId });

    // A full count: its cost is the sandbox's tally of requests to the base.
    const before = requestsTo(base.baseId);
    const full = await run(base.id);
    const cost = requestsTo(base.baseId) - before;
    expect(cost).toBeGreaterThan(1);
    expect(await setCounting(base.id, { countOnlyWhenChanged: true })).toEqual({
      countOnlyWhenChanged: true,
      auditWatched: true,
      days: [{ date: full.snapshotDate, apiCalls: cost, carriedOver: false, fromMirror: false }],
      savedCalls: 0,
    });

    // The next day, nothing changed: carried over, with no request to count the base.
    await nextDay(base.id);
    const quiet = requestsTo(base.baseId);
    expect(await scheduled(base.id)).toBe('carried-over');
    const carried = await counting(base.id);
    expect(carried.days[0]).toEqual({ date: full.snapshotDate, apiCalls: 0, carriedOver: true, fromMirror: false });
    expect(carried.savedCalls).toBe(cost);
    // Only the log was read (webhook payloads), not the records.
    expect(requestsTo(base.baseId) - quiet).toBeLessThanOrEqual(1);
    expect((await latest(base.id)).totals.recordCount).toBe(full.totalRecords);

    // The day after, a record was added upstream: counted, and the new record is in it.
    await nextDay(base.id);
    addRecord(base.baseId);
    expect(await scheduled(base.id)).toBe('counted');
    const counted = await counting(base.id);
    expect(counted.days[0]).toMatchObject({ carriedOver: false, apiCalls: expect.any(Number) });
    expect(counted.days[0]!.apiCalls).toBeGreaterThan(1);
    expect(counted.days.map((d) => d.carriedOver)).toEqual([false, true, false]);
    expect(counted.days[0]!.apiCalls, 'the count cost what the sandbox tallied').toBeLessThanOrEqual(requestsTo(base.baseId) - quiet);
    expect((await latest(base.id)).totals.recordCount).toBe(full.totalRecords + 1);

    // Changes left out of the log (its account was paused meanwhile, as ingestion marks it): the next day counts.
    await nextDay(base.id);
    await t.dataSource.query('UPDATE monitoring_config SET log_gap_at = ? WHERE id = ?', [new Date().toISOString(), config.id]);
    expect(await scheduled(base.id), 'a gap in the log').toBe('counted');
    await nextDay(base.id);
    expect(await scheduled(base.id), 'a full count after the gap').toBe('carried-over');

    // A carried-over day never replaces a count of that day.
    const today = (await run(base.id)).snapshotDate;
    await t.services.snapshots.record(base.id, today, [], new Date(), { apiCalls: 0, carriedOver: true });
    expect((await latest(base.id)).totals.recordCount).toBe(full.totalRecords + 1);

    // Off again: a quiet day counts.
    await setCounting(base.id, { countOnlyWhenChanged: false });
    await nextDay(base.id);
    expect(await scheduled(base.id)).toBe('counted');
  });

  it('counts when no monitoring config logs every change, and after a week of carried-over days', async () => {
    const base = await track(DEMO_BASES.marketing);
    await setCounting(base.id, { countOnlyWhenChanged: true });
    await run(base.id);
    await nextDay(base.id);
    expect(await scheduled(base.id), 'no audit watch').toBe('counted');

    const monitoringBaseId = t.baseId(DEMO_BASES.changeLog);
    // A records-only config would miss a deleted table.
    const config = await newConfig({ baseId: base.baseId, monitoringBaseId, scope: 'records_only' });
    await run(base.id);
    await nextDay(base.id);
    expect(await scheduled(base.id), 'records only').toBe('counted');

    await t.services.monitoringConfigs.update(t.accountId, config.id, parsed(monitoringConfigInput.update, { scope: 'all' }));
    await nextDay(base.id);
    expect(await scheduled(base.id), 'scope changed since the last count').toBe('counted');
    // From that count on the log covers everything: six quiet days carry over, the seventh counts in full.
    const outcomes: string[] = [];
    for (let day = 0; day < 7; day += 1) {
      await nextDay(base.id);
      outcomes.push(await scheduled(base.id));
    }
    expect(outcomes).toEqual([...Array(6).fill('carried-over'), 'counted']);

    // Ingestion leaves a config out while its base is missing: the change is lost to its log, so the log has a gap.
    await t.dataSource.query(`UPDATE monitoring_config SET status = 'monitored_base_missing' WHERE id = ?`, [config.id]);
    addRecord(base.baseId);
    const [watch] = await t.dataSource.query('SELECT id FROM upstream_watch WHERE base_id = ?', [base.baseId]);
    await t.services.changeIngest.ingest(watch.id);
    const [marked] = await t.dataSource.query('SELECT log_gap_at FROM monitoring_config WHERE id = ?', [config.id]);
    expect(marked.log_gap_at).not.toBeNull();
    await t.dataSource.query(`UPDATE monitoring_config SET status = 'ok' WHERE id = ?`, [config.id]);
    await nextDay(base.id);
    expect(await scheduled(base.id), 'the change left out of the log').toBe('counted');
  });

  it('refuses a setting that is not one, and another account’s base', async () => {
    const base = await track(DEMO_BASES.changeLog);
    for (const body of [{}, { countOnlyWhenChanged: 'yes' }, { countOnlyWhenChanged: true, other: 1 }]) {
      expect(await refusal(() => setCounting(base.id, body)), JSON.stringify(body)).toBe('invalid_request');
    }
    expect(await refusal(() => t.services.usageCounting.get(t.other.accountId, base.id))).toBe('not_found');
    expect(await refusal(() => t.services.usageCounting.update(t.other.accountId, base.id, { countOnlyWhenChanged: true }))).toBe(
      'not_found',
    );
  });
});
