import { Agenda, type Job } from 'agenda';
import { AgendashController } from 'agendash';
import type { DataSource } from 'typeorm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteBackend } from '../../src/jobs/backends/sqlite/index.js';
import { openJobsDatabase, type JobsDatabase } from './support/sqlite-jobs.js';

let db: JobsDatabase;
let agendas: Agenda[];

beforeEach(async () => {
  db = await openJobsDatabase();
  agendas = [];
});
afterEach(async () => {
  for (const agenda of agendas) await agenda.stop();
  await db.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(10);
  }
}

/** A started Agenda polling every 50 ms (a number: strings like '50 milliseconds' are misread). */
async function startAgenda(dataSource: DataSource, options: { name?: string; logging?: boolean } = {}) {
  const agenda = new Agenda({ backend: new SqliteBackend({ dataSource }), processEvery: 50, ...options });
  agendas.push(agenda);
  return agenda;
}

/** Records each run's job id under its job name. */
function defineRecorded(agenda: Agenda, name: string, runs: string[]) {
  agenda.define(name, async (job: Job) => {
    runs.push(String(job.attrs._id));
  });
}

describe(SqliteBackend.name, () => {
  it('runs a job queued with now() exactly once and leaves the DataSource open on stop', async () => {
    const agenda = await startAgenda(db.dataSource);
    const runs: string[] = [];
    defineRecorded(agenda, 'ping', runs);
    await agenda.start();
    const job = await agenda.now('ping', { a: 1 });
    await waitFor(() => runs.length === 1);
    await sleep(300);
    expect(runs).toEqual([String(job.attrs._id)]);
    await waitFor(async () => (await agenda.queryJobs({ name: 'ping' })).jobs[0]?.state === 'completed');

    await agenda.stop();
    expect(db.dataSource.isInitialized).toBe(true);
    expect(await db.dataSource.query('SELECT COUNT(*) AS n FROM agenda_job')).toEqual([{ n: 1 }]);
  });

  it('runs a repeating job once per interval and a scheduled job once, at its time', async () => {
    const agenda = await startAgenda(db.dataSource);
    const daily: string[] = [];
    const later: string[] = [];
    defineRecorded(agenda, 'daily', daily);
    defineRecorded(agenda, 'later', later);
    await agenda.start();
    await agenda.every('1 day', 'daily');
    await agenda.every('1 day', 'daily');
    const at = Date.now() + 300;
    await agenda.schedule(new Date(at), 'later');

    await waitFor(() => daily.length === 1);
    expect(later).toEqual([]);
    await waitFor(() => later.length === 1);
    expect(Date.now()).toBeGreaterThanOrEqual(at);
    await sleep(300);
    expect([daily.length, later.length]).toEqual([1, 1]);
    const [repeating] = (await agenda.queryJobs({ name: 'daily' })).jobs;
    expect(repeating).toMatchObject({ state: 'repeating', type: 'single', repeatInterval: '1 day' });
    expect(repeating!.nextRunAt!.getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
  });

  it('keeps one job per base with unique() however often it is saved, and runs each once', async () => {
    const agenda = await startAgenda(db.dataSource);
    const runs: string[] = [];
    defineRecorded(agenda, 'count-usage', runs);
    const schedule = (usageBaseId: string) =>
      agenda.create('count-usage', { usageBaseId }).unique({ 'data.usageBaseId': usageBaseId }).schedule(new Date()).save();
    for (const id of ['b1', 'b2', 'b3', 'b1', 'b2', 'b3']) await schedule(id);
    expect((await agenda.queryJobs({ name: 'count-usage' })).total).toBe(3);

    await agenda.start();
    await waitFor(() => runs.length === 3);
    await sleep(300);
    expect(new Set(runs).size).toBe(3);
    expect(runs).toHaveLength(3);
    expect(await agenda.cancel({ data: { usageBaseId: 'b2' } })).toBe(1);
  });

  it('shares the queue between two Agenda instances on two connections: every job runs exactly once', async () => {
    const other = await db.openAnother();
    const runs: string[] = [];
    for (const [dataSource, name] of [
      [db.dataSource, 'one'],
      [other.dataSource, 'two'],
    ] as const) {
      const agenda = await startAgenda(dataSource, { name });
      defineRecorded(agenda, 'shared', runs);
      await agenda.start();
    }
    const [producer] = agendas;
    await Promise.all(Array.from({ length: 30 }, (_, i) => producer!.now('shared', { i })));
    await waitFor(() => runs.length >= 30);
    await sleep(300);
    expect(runs).toHaveLength(30);
    expect(new Set(runs).size).toBe(30);
    const overview = await producer!.getJobsOverview();
    expect(overview).toMatchObject([{ name: 'shared', total: 30, completed: 30 }]);
  });

  it('records job events in the log table when logging is on', async () => {
    const agenda = await startAgenda(db.dataSource, { logging: true });
    const runs: string[] = [];
    defineRecorded(agenda, 'logged', runs);
    await agenda.start();
    const job = await agenda.now('logged');
    await waitFor(async () => (await agenda.getLogs({ jobName: 'logged', event: 'complete' })).total === 1);
    const { entries } = await agenda.getLogs({ jobId: String(job.attrs._id), sort: 'asc' });
    expect(entries.map((entry) => entry.event)).toEqual(expect.arrayContaining(['locked', 'start', 'success', 'complete']));
  });

  it('records a failure that is not an Error (a thrown string or plain object) and unlocks the job', async () => {
    const agenda = await startAgenda(db.dataSource, { logging: true });
    agenda.define('throws-object', async () => {
      throw { code: 'E_PLAIN', detail: 42 };
    });
    agenda.define('throws-string', async () => {
      throw 'plain string';
    });
    await agenda.start();
    const objectJob = String((await agenda.now('throws-object')).attrs._id);
    const stringJob = String((await agenda.now('throws-string')).attrs._id);
    const stateOf = async (name: string) => (await agenda.queryJobs({ name })).jobs[0];
    await waitFor(async () => (await stateOf('throws-object'))?.state === 'failed' && (await stateOf('throws-string'))?.state === 'failed');
    expect(await stateOf('throws-object')).toMatchObject({ _id: objectJob, failReason: '{"code":"E_PLAIN","detail":42}', failCount: 1 });
    expect(await stateOf('throws-string')).toMatchObject({ _id: stringJob, failReason: 'plain string', failCount: 1 });
    const rows = await db.dataSource.query('SELECT locked_at FROM agenda_job WHERE name LIKE ?', ['throws-%']);
    expect(rows).toEqual([{ locked_at: null }, { locked_at: null }]);
  });

  it('serves agendash: pages by state, retry of a failed job, pause, resume, stats and delete', async () => {
    const agenda = await startAgenda(db.dataSource);
    let attempts = 0;
    agenda.define('flaky', async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('first attempt fails');
    });
    await agenda.start();
    const dashboard = new AgendashController(agenda);
    const id = String((await agenda.now('flaky')).attrs._id);
    await waitFor(async () => (await dashboard.getJobs({ state: 'failed' })).total === 1);
    const failed = await dashboard.getJobs({ name: 'flaky', state: 'failed', limit: 10 });
    expect(failed.jobs[0]).toMatchObject({ failed: true, job: { _id: id, failReason: 'first attempt fails' } });

    await dashboard.retryJobs([id]);
    await waitFor(async () => (await dashboard.getJobs({ state: 'completed' })).total === 1);
    expect(attempts).toBe(2);
    expect((await dashboard.getJobs({})).jobs[0]?.job).toMatchObject({ failCount: undefined, failReason: undefined });

    expect(await dashboard.pauseJobs([id])).toEqual({ pausedCount: 1 });
    expect((await dashboard.getJobs({ state: 'paused' })).overview[0]).toMatchObject({ displayName: 'All Jobs', paused: 1 });
    expect(await dashboard.resumeJobs([id])).toEqual({ resumedCount: 1 });
    expect((await dashboard.getStats()).backend).toMatchObject({ name: 'SQLite', hasNotificationChannel: false });
    expect(await dashboard.deleteJobs([id])).toEqual({ deleted: true, deletedCount: 1 });
  });
});
