import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase, upstreamBaseId } from '../support/factories.js';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { sandboxControl } from '../support/sandbox-control.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * countOnlyWhenChanged against the sandbox, with the real audit watch: the scheduled count of a day without a logged
 * change carries the last full count over and spends no count request; a day with a change counts.
 */
describe('counting only when the base changed', () => {
  let app: TestApp;
  let api: SandboxApi;
  const requestsTo = async (baseId: string) =>
    (await sandboxControl(app.url)<{ byBase: Record<string, { requests: number }> }>('GET', 'stats')).byBase[baseId]?.requests ?? 0;

  beforeAll(async () => {
    app = await startTestApp();
    app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
    api = sandboxApi(app.url);
  });
  afterAll(() => app?.close());

  /** Makes every counted day and logged change one day older, and forgets the scheduled runs: the next run is "tomorrow". */
  async function nextDay(usageBaseId: string) {
    const db = app.running.dataSource;
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
    const base = await trackBase(app.http, DEMO_BASES.catalog);
    const monitoringBaseId = await upstreamBaseId(app.http, DEMO_BASES.changeLog);
    const counting = async () => (await app.http('GET', `/usage/bases/${base.id}/counting`)).body.counting;
    expect(await counting()).toEqual({ countOnlyWhenChanged: false, auditWatched: false, days: [], savedCalls: 0 });
    const config = await app.http('POST', '/monitoring-config', { body: { baseId: base.baseId, monitoringBaseId } });
    expect(config.status).toBe(201);

    // A full count: its cost is the sandbox's tally of requests to the base.
    const before = await requestsTo(base.baseId);
    const full = await app.http('POST', `/usage/bases/${base.id}/run`);
    expect(full.status).toBe(200);
    const cost = (await requestsTo(base.baseId)) - before;
    expect(cost).toBeGreaterThan(1);
    const put = await app.http('PUT', `/usage/bases/${base.id}/counting`, { body: { countOnlyWhenChanged: true } });
    expect(put.status).toBe(200);
    expect(put.body.counting).toEqual({
      countOnlyWhenChanged: true,
      auditWatched: true,
      days: [{ date: full.body.snapshotDate, apiCalls: cost, carriedOver: false, fromMirror: false }],
      savedCalls: 0,
    });

    // The next day, nothing changed: carried over, with no request to count the base.
    await nextDay(base.id);
    const quiet = await requestsTo(base.baseId);
    expect((await app.running.services.usageSchedule.runScheduled(base.id)).outcome).toBe('carried-over');
    const carried = await counting();
    expect(carried.days[0]).toEqual({ date: full.body.snapshotDate, apiCalls: 0, carriedOver: true, fromMirror: false });
    expect(carried.savedCalls).toBe(cost);
    // Only the log was read (webhook payloads), not the records.
    const spent = (await requestsTo(base.baseId)) - quiet;
    expect(spent).toBeLessThanOrEqual(1);
    const latest = (await app.http('GET', `/usage/bases/${base.id}/snapshots/latest`)).body.day;
    expect(latest.totals.recordCount).toBe(full.body.totalRecords);

    // The day after, a record was added upstream: counted, and the new record is in it.
    await nextDay(base.id);
    const [table] = await api.schema(base.baseId);
    await api.createRecords(base.baseId, table!.id, [{}]);
    expect((await app.running.services.usageSchedule.runScheduled(base.id)).outcome).toBe('counted');
    const counted = await counting();
    expect(counted.days[0]).toMatchObject({ carriedOver: false, apiCalls: expect.any(Number) });
    expect(counted.days[0].apiCalls).toBeGreaterThan(1);
    expect(counted.days.map((d: { carriedOver: boolean }) => d.carriedOver)).toEqual([false, true, false]);
    expect(counted.days[0].apiCalls, 'the count cost what the sandbox tallied').toBeLessThanOrEqual(
      (await requestsTo(base.baseId)) - quiet,
    );
    expect((await app.http('GET', `/usage/bases/${base.id}/snapshots/latest`)).body.day.totals.recordCount).toBe(
      full.body.totalRecords + 1,
    );

    // Changes left out of the log (its account was paused meanwhile, as ingestion marks it): the next day counts.
    await nextDay(base.id);
    await app.running.dataSource.query('UPDATE monitoring_config SET log_gap_at = ? WHERE id = ?', [
      new Date().toISOString(),
      config.body.config.id,
    ]);
    expect((await app.running.services.usageSchedule.runScheduled(base.id)).outcome, 'a gap in the log').toBe('counted');
    await nextDay(base.id);
    expect((await app.running.services.usageSchedule.runScheduled(base.id)).outcome, 'a full count after the gap').toBe('carried-over');

    // A carried-over day never replaces a count of that day.
    const today = (await app.http('POST', `/usage/bases/${base.id}/run`)).body.snapshotDate as string;
    await app.running.services.snapshots.record(base.id, today, [], new Date(), { apiCalls: 0, carriedOver: true });
    expect((await app.http('GET', `/usage/bases/${base.id}/snapshots/latest`)).body.day.totals.recordCount).toBe(
      full.body.totalRecords + 1,
    );

    // Off again: a quiet day counts.
    await app.http('PUT', `/usage/bases/${base.id}/counting`, { body: { countOnlyWhenChanged: false } });
    await nextDay(base.id);
    expect((await app.running.services.usageSchedule.runScheduled(base.id)).outcome).toBe('counted');
  });

  it('counts when no monitoring config logs every change, and after a week of carried-over days', async () => {
    const base = await trackBase(app.http, DEMO_BASES.marketing);
    await app.http('PUT', `/usage/bases/${base.id}/counting`, { body: { countOnlyWhenChanged: true } });
    await app.http('POST', `/usage/bases/${base.id}/run`);
    await nextDay(base.id);
    expect((await app.running.services.usageSchedule.runScheduled(base.id)).outcome, 'no audit watch').toBe('counted');

    const monitoringBaseId = await upstreamBaseId(app.http, DEMO_BASES.changeLog);
    // A records-only config would miss a deleted table.
    const config = await app.http('POST', '/monitoring-config', { body: { baseId: base.baseId, monitoringBaseId, scope: 'records_only' } });
    expect(config.status).toBe(201);
    await app.http('POST', `/usage/bases/${base.id}/run`);
    await nextDay(base.id);
    expect((await app.running.services.usageSchedule.runScheduled(base.id)).outcome, 'records only').toBe('counted');

    await app.http('PATCH', `/monitoring-config/${config.body.config.id}`, { body: { scope: 'all' } });
    await nextDay(base.id);
    expect((await app.running.services.usageSchedule.runScheduled(base.id)).outcome, 'scope changed since the last count').toBe('counted');
    // From that count on the log covers everything: six quiet days carry over, the seventh counts in full.
    const outcomes: string[] = [];
    for (let day = 0; day < 7; day += 1) {
      await nextDay(base.id);
      outcomes.push((await app.running.services.usageSchedule.runScheduled(base.id)).outcome);
    }
    expect(outcomes).toEqual([...Array(6).fill('carried-over'), 'counted']);

    // Ingestion leaves a config out while its base is missing: the change is lost to its log, so the log has a gap.
    const configId = config.body.config.id as string;
    await app.running.dataSource.query(`UPDATE monitoring_config SET status = 'monitored_base_missing' WHERE id = ?`, [configId]);
    const [table] = await api.schema(base.baseId);
    await api.createRecords(base.baseId, table!.id, [{}]);
    const [watch] = await app.running.dataSource.query('SELECT id FROM upstream_watch WHERE base_id = ?', [base.baseId]);
    await app.running.services.changeIngest.ingest(watch.id);
    const [marked] = await app.running.dataSource.query('SELECT log_gap_at FROM monitoring_config WHERE id = ?', [configId]);
    expect(marked.log_gap_at).not.toBeNull();
    await app.running.dataSource.query(`UPDATE monitoring_config SET status = 'ok' WHERE id = ?`, [configId]);
    await nextDay(base.id);
    expect((await app.running.services.usageSchedule.runScheduled(base.id)).outcome, 'the change left out of the log').toBe('counted');
    for (const query of [{}, { countOnlyWhenChanged: 'yes' }, { countOnlyWhenChanged: true, other: 1 }]) {
      expect((await app.http('PUT', `/usage/bases/${base.id}/counting`, { body: query })).status).toBe(400);
    }
    expect((await app.other.http('GET', `/usage/bases/${base.id}/counting`)).status).toBe(404);
  });
});
