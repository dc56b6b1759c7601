import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DateTime } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import { AgendaUsageJobStore } from '../../src/jobs/usage-job-store.js';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { createHttp } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * What Agenda does with the daily jobs: runs them, retries, takes over a dead process's lock, lets a job finish at
 * shutdown, catches up after a restart, and several instances sharing one file. The schedule's rules (the job moved
 * and removed with its base, the spread): test/services/usage-schedule.service.test.ts.
 */

/** A real Agenda on the SQLite job store, polling every 50 ms, no spread. */
const SCHEDULER = { SCHEDULER_RUN_JOBS: 'true', JOBS_PROCESS_EVERY_MS: '50', USAGE_SPREAD_SECONDS: '0' };
const apps: TestApp[] = [];
/** Each app's log lines at info and above, for a failure to show what its scheduler did. */
const logs = new WeakMap<TestApp, string[]>();
async function start(env: Record<string, string> = {}) {
  const lines: string[] = [];
  const app = await startTestApp({ ...SCHEDULER, LOG_LEVEL: 'info', ...env }, { write: (line: string) => void lines.push(line) });
  logs.set(app, lines);
  apps.push(app);
  return app;
}
afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
});

const jobsOf = (app: TestApp) => new AgendaUsageJobStore(app.running.scheduler.agenda);
const runsOf = (app: TestApp, id: string) =>
  app.running.dataSource.query('SELECT local_day, status, error FROM usage_run WHERE usage_base_id = ?', [id]);
const requestsFor = (app: TestApp, baseId: string) => app.running.sandbox!.stats.byBase.get(baseId)?.requests ?? 0;

/** Waits for `condition`; on timeout the error shows the base's runs and the app's log, when given. */
async function until(condition: () => Promise<boolean> | boolean, timeoutMs = 15_000, seen?: { app: TestApp; usageBaseId: string }) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      const state = seen && { runs: await runsOf(seen.app, seen.usageBaseId), log: logs.get(seen.app)?.slice(-20) };
      throw new Error(`condition not met in time${state ? `: ${JSON.stringify(state, null, 1)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

/** What the schedule should say: the hour's next occurrence in the zone after now. */
const nextAt = (hour: number, zone: string) => {
  const now = DateTime.now().setZone(zone);
  let at = now.set({ hour, minute: 0, second: 0, millisecond: 0 });
  if (at <= now) at = at.plus({ days: 1 }).set({ hour });
  return at.toUTC().toISO();
};

describe('daily usage jobs (Agenda on SQLite)', () => {
  it('creates one job per base at its local hour, and counts a due base exactly once per local day', async () => {
    const app = await start();
    const base = await trackBase(app.http, DEMO_BASES.catalog, { scheduledHour: 7, timezone: 'Asia/Kolkata' });
    const schedule = await app.http('GET', `/usage/bases/${base.id}/schedule`);
    expect(schedule.status).toBe(200);
    expect(schedule.body).toEqual({ nextRunAt: nextAt(7, 'Asia/Kolkata'), lastRun: null });

    await jobsOf(app).set(base.id, new Date());
    await until(async () => (await runsOf(app, base.id)).some((r: { status: string }) => r.status === 'ok'));
    await settle();
    const oneCount = requestsFor(app, base.baseId);
    expect(oneCount).toBe(1 + 3 + 1 + 2); // schema + Products (250) + Suppliers (40) + Orders (120)
    expect(await runsOf(app, base.id)).toEqual([
      { local_day: DateTime.now().setZone('Asia/Kolkata').toISODate(), status: 'ok', error: null },
    ]);
    const latest = await app.http('GET', `/usage/bases/${base.id}/snapshots/latest`);
    expect(latest.body.day.totals.recordCount).toBe(410);
    const after = await app.http('GET', `/usage/bases/${base.id}/schedule`);
    expect(after.body.nextRunAt).toBe(nextAt(7, 'Asia/Kolkata'));
    expect(after.body.lastRun).toEqual({ startedAt: expect.any(String), finishedAt: expect.any(String), status: 'ok' });

    // The same job firing again for the same local day does not count again.
    await jobsOf(app).set(base.id, new Date());
    await until(async () => (await jobsOf(app).nextRunAt(base.id))!.getTime() > Date.now());
    await settle();
    expect(requestsFor(app, base.baseId)).toBe(oneCount);
    expect(await runsOf(app, base.id)).toHaveLength(1);
  });

  it('retries a failed count with backoff, then waits for the next day and shows the failure', async () => {
    const app = await start({ USAGE_RETRY_DELAY_MS: '100', USAGE_MAX_RETRIES: '2', UPSTREAM_MAX_RETRIES: '0' });
    const base = await trackBase(app.http, DEMO_BASES.marketing, { scheduledHour: 4 });
    app.running.sandbox!.faults.update({ errorRate: 1, errorStatus: 503 });
    const failures: number[] = [];
    app.running.scheduler.agenda.on('fail:usage.count', () => failures.push(Date.now()));
    await jobsOf(app).set(base.id, new Date());
    await until(() => failures.length === 3);
    await until(async () => (await jobsOf(app).nextRunAt(base.id))?.toISOString() === nextAt(4, 'UTC'));
    expect(failures[1] - failures[0]).toBeGreaterThanOrEqual(90);
    expect(failures[2] - failures[1]).toBeGreaterThanOrEqual(350); // 100 ms, then 400 ms
    const schedule = await app.http('GET', `/usage/bases/${base.id}/schedule`);
    expect(schedule.body.lastRun).toMatchObject({ status: 'failed', error: expect.stringContaining('upstream') });
    app.running.sandbox!.faults.reset();
  });

  it('runs a job again after its lock lifetime when the process counting it died', async () => {
    const app = await start({ JOBS_LOCK_LIFETIME_MS: '1000' });
    const base = await trackBase(app.http, DEMO_BASES.changeLog, { scheduledHour: 3 });
    const today = DateTime.now().toUTC().toISODate();
    // As a dead process leaves them: the job locked and due, today's run marked running.
    await app.running.dataSource.query(
      "UPDATE agenda_job SET locked_at = ?, next_run_at = ? WHERE json_extract(data, '$.usageBaseId') = ?",
      [new Date(Date.now() - 400).toISOString(), new Date(Date.now() - 400).toISOString(), base.id],
    );
    await app.running.dataSource.query(
      "INSERT INTO usage_run (id, usage_base_id, local_day, status, started_at) VALUES ('dead', ?, ?, 'running', ?)",
      [base.id, today, new Date(Date.now() - 5_000).toISOString()],
    );
    await settle();
    expect(await runsOf(app, base.id)).toEqual([{ local_day: today, status: 'running', error: null }]);
    await until(async () => (await runsOf(app, base.id))[0].status === 'ok');
  });
});

describe('shutdown', () => {
  it('lets a running job finish when the service shuts down', async () => {
    const app = await start();
    const base = await trackBase(app.http, DEMO_BASES.catalog, { scheduledHour: 2 });
    app.running.sandbox!.faults.update({ latencyMs: 300 });
    await jobsOf(app).set(base.id, new Date());
    await until(async () => (await runsOf(app, base.id)).length === 1);
    await app.running.close();
    const db = new Database(join(app.dir, 'test.sqlite'), { readonly: true });
    expect(db.prepare('SELECT status, error FROM usage_run WHERE usage_base_id = ?').all(base.id)).toEqual([{ status: 'ok', error: null }]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM usage_snapshot WHERE usage_base_id = ?').get(base.id)).toEqual({ n: 1 });
    db.close();
  });
});

describe('restarts and several instances', () => {
  it('catches up a run missed while the service was down, once', async () => {
    const first = await start({ SCHEDULER_RUN_JOBS: 'false' });
    const hour = DateTime.now().toUTC().hour;
    const base = await trackBase(first.http, DEMO_BASES.catalog, { scheduledHour: hour });
    const file = join(first.dir, 'test.sqlite');
    // The base was tracked yesterday and its job's run of today came due while nothing was running.
    const dueAt = DateTime.now().toUTC().startOf('hour').toISO();
    await first.running.dataSource.query('UPDATE usage_base SET created_at = ? WHERE id = ?', [
      DateTime.now().minus({ days: 1 }).toUTC().toISO(),
      base.id,
    ]);
    await first.running.dataSource.query("UPDATE agenda_job SET next_run_at = ? WHERE json_extract(data, '$.usageBaseId') = ?", [
      dueAt,
      base.id,
    ]);

    const second = await start({ DATABASE_URL: `sqlite:${file}` });
    await until(async () => (await runsOf(second, base.id)).some((r: { status: string }) => r.status === 'ok'), 15_000, {
      app: second,
      usageBaseId: base.id,
    });
    await second.close();
    apps.splice(apps.indexOf(second), 1);

    // A job lost altogether is caught up by the reconcile; a day already counted is not counted again.
    await first.running.dataSource.query("DELETE FROM agenda_job WHERE json_extract(data, '$.usageBaseId') = ?", [base.id]);
    const third = await start({ DATABASE_URL: `sqlite:${file}` });
    await settle();
    expect(requestsFor(third, base.baseId)).toBe(0);
    expect(await runsOf(third, base.id)).toHaveLength(1);
    const viaThird = createHttp(third.url, first.apiKey);
    expect((await viaThird('GET', `/usage/bases/${base.id}/schedule`)).body.nextRunAt).toBe(nextAt(hour, 'UTC'));
    await third.close();
    apps.splice(apps.indexOf(third), 1);

    // Job and today's run both lost: the reconcile sees today's slot passed uncounted and runs it now, once.
    await first.running.dataSource.query("DELETE FROM agenda_job WHERE json_extract(data, '$.usageBaseId') = ?", [base.id]);
    await first.running.dataSource.query('DELETE FROM usage_run WHERE usage_base_id = ?', [base.id]);
    const fourth = await start({ DATABASE_URL: `sqlite:${file}` });
    await until(async () => (await runsOf(fourth, base.id)).some((r: { status: string }) => r.status === 'ok'), 15_000, {
      app: fourth,
      usageBaseId: base.id,
    });
    await settle();
    expect(requestsFor(fourth, base.baseId)).toBe(1 + 3 + 1 + 2);
    expect((await createHttp(fourth.url, first.apiKey)('GET', `/usage/bases/${base.id}/schedule`)).body.nextRunAt).toBe(
      nextAt(hour, 'UTC'),
    );
  });

  it('never counts a base twice for one local day with two instances on one SQLite file', async () => {
    const first = await start();
    const second = await start({ DATABASE_URL: `sqlite:${join(first.dir, 'test.sqlite')}` });
    const base = await trackBase(first.http, DEMO_BASES.catalog, { scheduledHour: 9, timezone: 'Europe/Berlin' });
    for (let i = 0; i < 3; i++) {
      await jobsOf(i % 2 ? second : first).set(base.id, new Date());
      await until(async () => (await jobsOf(first).nextRunAt(base.id))!.getTime() > Date.now());
    }
    await settle();
    expect(requestsFor(first, base.baseId) + requestsFor(second, base.baseId)).toBe(1 + 3 + 1 + 2);
    expect(await runsOf(first, base.id)).toHaveLength(1);
    const viaSecond = createHttp(second.url, first.apiKey);
    expect((await viaSecond('GET', `/usage/bases/${base.id}/schedule`)).body.lastRun.status).toBe('ok');
  });
});
