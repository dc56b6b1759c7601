import { computeJobState, type JobParameters, type JobState } from 'agenda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteJobLogger, SqliteJobRepository } from '../../src/jobs/backends/sqlite/index.js';
import { uniqueFilter } from '../../src/jobs/backends/sqlite/json-match.js';
import { and } from '../../src/jobs/backends/sqlite/sql-parts.js';
import { minutesFromNow, newJob, openJobsDatabase, type JobsDatabase } from './support/sqlite-jobs.js';

let db: JobsDatabase;
let repo: SqliteJobRepository;

beforeEach(async () => {
  db = await openJobsDatabase();
  repo = db.repository;
});
afterEach(async () => db.close());

const save = <DATA>(job: JobParameters<DATA>) => repo.saveJob(job, { lastModifiedBy: 'test' });
const lockNext = (name: string, at = new Date(), lockLifetimeMs = 600_000, r = repo) =>
  r.getNextJobToRun(name, at, new Date(at.getTime() - lockLifetimeMs), undefined, { lastModifiedBy: 'test' });
const count = async (name?: string) => (await repo.queryJobs(name ? { name } : {})).total;

describe(`${SqliteJobRepository.name}: saving`, () => {
  it('inserts a job and reads every field back', async () => {
    const job = newJob({
      name: 'count',
      priority: 10,
      nextRunAt: minutesFromNow(5),
      data: { usageBaseId: 'b1', nested: { n: 1 } },
      repeatInterval: 86_400_000,
      repeatTimezone: 'Europe/Berlin',
      repeatAt: '3:00am',
      startDate: new Date('2026-01-01T00:00:00Z'),
      endDate: new Date('2027-01-01T00:00:00Z'),
      skipDays: [0, 6],
      fork: false,
    });
    const saved = await save(job);
    expect(saved._id).toMatch(/^[0-9a-f-]{36}$/);
    const read = await repo.getJobById(saved._id!);
    expect(read).toMatchObject({ ...job, _id: saved._id, disabled: false, lastModifiedBy: 'test' });
    expect(read?.repeatInterval).toBe(86_400_000);
    expect(read?.lockedAt).toBeUndefined();
    expect(await repo.getJobById('no-such-id')).toBeNull();
  });

  it('updates by id without touching processor fields the caller left out, and clears those it names', async () => {
    const saved = await save(newJob({ name: 'count', data: { v: 1 } }));
    const locked = await lockNext('count');
    const failure = { lastRunAt: new Date(), failCount: 2, failReason: 'boom', failedAt: new Date() };
    await repo.saveJobState({ ...locked!, ...failure }, undefined);

    await save({ ...newJob({ name: 'count', data: { v: 2 } }), _id: saved._id });
    const afterSave = await repo.getJobById(saved._id!);
    expect(afterSave).toMatchObject({ data: { v: 2 }, failCount: 2, failReason: 'boom' });
    expect(afterSave?.lockedAt).toBeInstanceOf(Date);

    // agendash's "retry" names the fields it resets.
    await save({ ...afterSave!, lockedAt: undefined, failedAt: undefined, failReason: undefined, failCount: undefined });
    const retried = await repo.getJobById(saved._id!);
    expect(retried).toMatchObject({ lockedAt: undefined, failedAt: undefined, failReason: undefined, failCount: undefined });
    expect(retried?.lastRunAt).toBeInstanceOf(Date);
  });

  it('returns the input unchanged when the job to update is gone', async () => {
    const saved = await save(newJob({ name: 'count' }));
    await repo.removeJobs({ id: saved._id });
    const again = { ...saved, data: { v: 3 } };
    expect(await save(again)).toBe(again);
    expect(await count()).toBe(0);
  });

  it('upserts single jobs by name, keeping an existing due time when the new one is not in the future', async () => {
    const due = minutesFromNow(-1);
    const first = await save(newJob({ name: 'daily', type: 'single', nextRunAt: due, repeatInterval: '1 day' }));
    const second = await save(newJob({ name: 'daily', type: 'single', nextRunAt: new Date(), data: { v: 2 } }));
    expect(second._id).toBe(first._id);
    expect(second.nextRunAt).toEqual(due);
    expect(second.data).toEqual({ v: 2 });
    const later = minutesFromNow(30);
    expect((await save(newJob({ name: 'daily', type: 'single', nextRunAt: later }))).nextRunAt).toEqual(later);
    expect(await count('daily')).toBe(1);
  });

  it('upserts by unique data, one job per key, without duplicates under concurrent saves from two connections', async () => {
    const other = await db.openAnother();
    const perBase = (baseId: string, v: number) =>
      newJob({ name: 'count', data: { usageBaseId: baseId, v }, unique: { 'data.usageBaseId': baseId } });
    const saves = Array.from({ length: 40 }, (_, i) => (i % 2 ? repo : other.repository).saveJob(perBase(`b${i % 4}`, i), undefined));
    const saved = await Promise.all(saves);
    expect(new Set(saved.map((job) => job._id)).size).toBe(4);
    expect(await count('count')).toBe(4);
    const b0 = await repo.queryJobs({ data: { usageBaseId: 'b0' } });
    expect(b0.jobs.map((job) => (job.data as { v: number }).v)).toEqual([36]);
  });

  it('keeps the original job with insertOnly', async () => {
    const unique = { 'data.usageBaseId': 'b1' };
    const first = await save(newJob({ name: 'count', data: { usageBaseId: 'b1', v: 1 }, unique }));
    const second = await save(newJob({ name: 'count', data: { usageBaseId: 'b1', v: 2 }, unique, uniqueOpts: { insertOnly: true } }));
    expect(second).toMatchObject({ _id: first._id, data: { usageBaseId: 'b1', v: 1 } });
    const otherBase = await save(
      newJob({
        name: 'count',
        data: { usageBaseId: 'b2' },
        unique: { 'data.usageBaseId': 'b2' },
        uniqueOpts: { insertOnly: true },
      }),
    );
    expect(otherBase._id).not.toBe(first._id);
  });

  it('matches unique values by JSON type, null as missing, and refuses query operators', async () => {
    const byKey = (key: unknown) => newJob({ name: 'k', data: key === undefined ? {} : { key }, unique: { 'data.key': key } });
    for (const key of ['5', 5, true, 1, null, { a: [1] }, '5', 5, true, 1, undefined, { a: [1] }]) await save(byKey(key));
    expect(await count('k')).toBe(6);
    await expect(save(newJob({ name: 'k', unique: { 'data.key': { $gt: 1 } } }))).rejects.toThrow(/operators/);
    await expect(save(newJob({ name: 'k', unique: { $where: 'x' } }))).rejects.toThrow(/unsupported/);
  });

  it('finds a unique job through the expression index, not a table scan', async () => {
    for (let i = 0; i < 50; i++) {
      await save(newJob({ name: 'count', data: { usageBaseId: `b${i}` }, unique: { 'data.usageBaseId': `b${i}` } }));
    }
    // The lookup saveJob runs inside its transaction for this unique key.
    const match = and([{ sql: 'name = ?', params: ['count'] }, uniqueFilter({ 'data.usageBaseId': 'b7' })]);
    const plan = (await db.dataSource.query(
      `EXPLAIN QUERY PLAN SELECT * FROM agenda_job WHERE ${match.sql} ORDER BY rowid LIMIT 1`,
      match.params,
    )) as Array<{ detail: string }>;
    expect(plan.map((step) => step.detail).join('\n')).toContain('USING INDEX idx_agenda_job_usage_base');
  });

  it('debounces: trailing pushes the due time, maxWait forces it, leading keeps the first one', async () => {
    const unique = { 'data.key': 'a' };
    const trailing = (maxWait?: number) =>
      newJob({ name: 'sync', data: { key: 'a' }, unique, uniqueOpts: { debounce: { delay: 60_000, maxWait } } });
    const first = await save(trailing());
    expect(first.nextRunAt!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(first.debounceStartedAt).toBeInstanceOf(Date);
    const second = await save(trailing());
    expect(second._id).toBe(first._id);
    expect(second.debounceStartedAt).toEqual(first.debounceStartedAt);
    const forced = await save(trailing(0));
    expect(forced.nextRunAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(forced.debounceStartedAt).toBeUndefined();

    const leading = () =>
      newJob({
        name: 'notify',
        data: { key: 'a', at: Date.now() },
        unique,
        uniqueOpts: { debounce: { delay: 60_000, strategy: 'leading' } },
      });
    const lead = await save(leading());
    const again = await save({ ...leading(), nextRunAt: minutesFromNow(9) });
    expect(again).toMatchObject({ _id: lead._id, nextRunAt: lead.nextRunAt });
  });

  it('writes the state fields and refuses to write the state of a job that is gone', async () => {
    const saved = await save(newJob({ name: 'count' }));
    const state = { lastRunAt: new Date(), lastFinishedAt: new Date(), progress: 50, nextRunAt: minutesFromNow(60) };
    await repo.saveJobState({ ...saved, ...state }, { lastModifiedBy: 'worker' });
    expect(await repo.getJobById(saved._id!)).toMatchObject({ ...state, lastModifiedBy: 'worker' });
    await repo.removeJobs({ id: saved._id });
    await expect(repo.saveJobState(saved, undefined)).rejects.toThrow(/cannot be updated/);
  });
});

describe(`${SqliteJobRepository.name}: locking`, () => {
  it('locks the earliest due job first, then the highest priority, and nothing due later than the scan', async () => {
    const now = new Date();
    await save(newJob({ name: 'n', data: { id: 'low' }, priority: -10, nextRunAt: minutesFromNow(-5, now) }));
    await save(newJob({ name: 'n', data: { id: 'high' }, priority: 10, nextRunAt: minutesFromNow(-5, now) }));
    await save(newJob({ name: 'n', data: { id: 'oldest' }, priority: -20, nextRunAt: minutesFromNow(-10, now) }));
    await save(newJob({ name: 'n', data: { id: 'future' }, priority: 20, nextRunAt: minutesFromNow(5, now) }));
    await save(newJob({ name: 'other', nextRunAt: minutesFromNow(-60, now) }));
    const order: unknown[] = [];
    for (let job = await lockNext('n', now); job; job = await lockNext('n', now)) {
      order.push((job.data as { id: string }).id);
    }
    expect(order).toEqual(['oldest', 'high', 'low']);
    expect((await lockNext('n', minutesFromNow(6, now)))?.data).toEqual({ id: 'future' });
  });

  it('stamps the lock time and the locker', async () => {
    await save(newJob({ name: 'n' }));
    const at = new Date(Date.now() - 1000);
    const job = await repo.getNextJobToRun('n', new Date(), new Date(0), at, { lastModifiedBy: 'me' });
    expect(job).toMatchObject({ lockedAt: at, lastModifiedBy: 'me' });
  });

  it('never hands one job to two of 50 concurrent lockers on two connections', async () => {
    const other = await db.openAnother();
    for (let i = 0; i < 30; i++) await save(newJob({ name: 'n', nextRunAt: minutesFromNow(-i) }));
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => lockNext('n', new Date(), 600_000, i % 2 ? repo : other.repository)),
    );
    const ids = results.filter((job) => job !== undefined).map((job) => job!._id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });

  it('hands out a job again once its lock is older than the lock lifetime', async () => {
    await save(newJob({ name: 'n', nextRunAt: minutesFromNow(-1) }));
    const lockedAt = minutesFromNow(-10);
    const first = await repo.getNextJobToRun('n', new Date(), minutesFromNow(-20), lockedAt, undefined);
    expect(first?.lockedAt).toEqual(lockedAt);
    expect(await lockNext('n', new Date(), 20 * 60_000)).toBeUndefined();
    const again = await lockNext('n', new Date(), 5 * 60_000);
    expect(again?._id).toBe(first?._id);
    expect(again!.lockedAt!.getTime()).toBeGreaterThan(lockedAt.getTime());
  });

  it('skips disabled jobs until they are enabled, counting only jobs that change', async () => {
    const a = await save(newJob({ name: 'n', data: { k: 'a' } }));
    await save(newJob({ name: 'n', data: { k: 'b' } }));
    expect(await repo.disableJobs({ name: 'n' })).toBe(2);
    expect(await repo.disableJobs({ name: 'n' })).toBe(0);
    expect(await lockNext('n')).toBeUndefined();
    expect(await repo.enableJobs({ data: { k: 'a' } })).toBe(1);
    expect((await lockNext('n'))?._id).toBe(a._id);
    expect(await repo.enableJobs({})).toBe(0);
  });

  it('lockJob locks only an unlocked, enabled job whose due time is unchanged', async () => {
    const job = await save(newJob({ name: 'n', nextRunAt: minutesFromNow(1) }));
    expect(await repo.lockJob({ ...job, nextRunAt: minutesFromNow(2) }, undefined)).toBeUndefined();
    const locked = await repo.lockJob(job, { lastModifiedBy: 'me' });
    expect(locked).toMatchObject({ _id: job._id, lastModifiedBy: 'me' });
    expect(locked?.lockedAt).toBeInstanceOf(Date);
    expect(await repo.lockJob(job, undefined)).toBeUndefined();
  });

  it('unlockJob keeps the lock of a started one-time job; unlockJobs releases any', async () => {
    const repeating = await save(newJob({ name: 'n', nextRunAt: minutesFromNow(-1) }));
    const oneTime = await save(newJob({ name: 'n', nextRunAt: minutesFromNow(-2) }));
    const lockedOneTime = await lockNext('n');
    await lockNext('n');
    await repo.saveJobState({ ...lockedOneTime!, nextRunAt: null }, undefined);
    await repo.unlockJob(repeating);
    await repo.unlockJob(oneTime);
    expect((await repo.getJobById(repeating._id!))?.lockedAt).toBeUndefined();
    expect((await repo.getJobById(oneTime._id!))?.lockedAt).toBeInstanceOf(Date);
    await repo.unlockJobs([oneTime._id!]);
    expect((await repo.getJobById(oneTime._id!))?.lockedAt).toBeUndefined();
  });
});

describe(`${SqliteJobRepository.name}: removing and counting`, () => {
  const seed = async () => {
    const a = await save(newJob({ name: 'a', data: { base: { id: 'b1' }, n: 1 } }));
    const b = await save(newJob({ name: 'b', data: { base: { id: 'b2' }, n: 1 } }));
    const c = await save(newJob({ name: 'c', data: { base: { id: 'b1' }, n: 2 } }));
    return { a, b, c };
  };

  it('removes by id, ids, name, names, notNames and partial data; nothing without a criterion', async () => {
    const { a, b } = await seed();
    expect(await repo.removeJobs({})).toBe(0);
    expect(await repo.removeJobs({ id: 'not-an-id' })).toBe(0);
    expect(await repo.removeJobs({ data: { base: { id: 'b1' }, n: 2 } })).toBe(1);
    expect(await repo.removeJobs({ id: a._id })).toBe(1);
    await seed();
    expect(await repo.removeJobs({ notNames: ['a'] })).toBe(3);
    expect(await repo.getDistinctJobNames()).toEqual(['a']);
    await seed();
    expect(await repo.removeJobs({ names: ['b', 'c'] })).toBe(2);
    expect(await repo.removeJobs({ name: 'a', data: { n: 1 } })).toBe(2);
    const left = await seed();
    expect(await repo.removeJobs({ ids: [left.a._id!, left.b._id!, b._id!] })).toBe(2);
    expect(await repo.purgeAllJobs()).toBe(1);
    expect(await count()).toBe(0);
  });

  it('counts the jobs that are due as the queue size', async () => {
    await save(newJob({ name: 'a', nextRunAt: minutesFromNow(-1) }));
    await save(newJob({ name: 'b', nextRunAt: minutesFromNow(-1), disabled: true }));
    await save(newJob({ name: 'c', nextRunAt: minutesFromNow(1) }));
    await save(newJob({ name: 'd', nextRunAt: null }));
    expect(await repo.getQueueSize()).toBe(2);
  });
});

describe(`${SqliteJobRepository.name}: queries`, () => {
  /** One job in each computed state, plus edge cases of the state rules. */
  const seedStates = async () => {
    const now = Date.now();
    const at = (ms: number) => new Date(now + ms);
    const jobs: Array<JobParameters & { name: string }> = [
      newJob({ name: 'x', nextRunAt: at(60_000) }),
      newJob({ name: 'x', nextRunAt: at(-60_000) }),
      newJob({ name: 'x', nextRunAt: null, lastFinishedAt: at(-1000) }),
      newJob({ name: 'x', nextRunAt: null }),
      newJob({ name: 'x', nextRunAt: at(60_000), failedAt: at(-1000), lastFinishedAt: at(-1000) }),
      newJob({ name: 'x', nextRunAt: null, failedAt: at(-2000), lastFinishedAt: at(-1000) }),
      newJob({ name: 'y', nextRunAt: at(60_000), repeatInterval: '1 day' }),
      newJob({ name: 'y', nextRunAt: at(-60_000), repeatInterval: 0 }),
      newJob({ name: 'y', nextRunAt: at(60_000), repeatInterval: '1 day', disabled: true }),
      newJob({ name: 'y', nextRunAt: at(-60_000), lockedAt: at(-1000), failedAt: at(-500) }),
    ];
    for (const job of jobs) await save(job);
  };

  it('computes each job state exactly as Agenda does, and filters by it in the database', async () => {
    await seedStates();
    const all = await repo.queryJobs();
    expect(all.total).toBe(10);
    for (const job of all.jobs) expect(job.state).toBe(computeJobState(job));
    const states: JobState[] = ['running', 'scheduled', 'queued', 'completed', 'failed', 'repeating'];
    for (const state of states) {
      const filtered = await repo.queryJobs({ state });
      expect(filtered.jobs.map((job) => job._id).sort(), state).toEqual(
        all.jobs
          .filter((job) => job.state === state)
          .map((job) => job._id)
          .sort(),
      );
      expect(filtered.total).toBe(filtered.jobs.length);
    }
    expect((await repo.queryJobs({ state: 'paused' })).jobs.map((job) => job.disabled)).toEqual([true]);
    expect((await repo.queryJobs({ includeDisabled: false })).total).toBe(9);
  });

  it('summarises each job name by state, with paused counted on top', async () => {
    await seedStates();
    const overview = await repo.getJobsOverview();
    expect(overview).toEqual([
      { name: 'x', total: 6, running: 0, scheduled: 1, queued: 1, completed: 3, failed: 1, repeating: 0, paused: 0 },
      { name: 'y', total: 4, running: 1, scheduled: 0, queued: 1, completed: 0, failed: 0, repeating: 2, paused: 1 },
    ]);
  });

  it('filters by names, ids, data and a case-insensitive literal search; sorts and pages with a total', async () => {
    for (const [i, name] of ['count-usage', 'Count_Audit', 'countXaudit', 'notify'].entries()) {
      await save(newJob({ name, priority: i, data: { i }, nextRunAt: minutesFromNow(i) }));
    }
    expect((await repo.queryJobs({ search: 'COUNT' })).total).toBe(3);
    expect((await repo.queryJobs({ search: 'count_' })).jobs.map((job) => job.name)).toEqual(['Count_Audit']);
    expect((await repo.queryJobs({ search: '%' })).total).toBe(0);
    expect((await repo.queryJobs({ names: ['notify', 'count-usage'] })).total).toBe(2);
    expect((await repo.queryJobs({ data: { i: 2 } })).jobs.map((job) => job.name)).toEqual(['countXaudit']);

    const page = await repo.queryJobs({ sort: { priority: 'asc' }, skip: 1, limit: 2 });
    expect(page).toMatchObject({ total: 4, jobs: [{ name: 'Count_Audit' }, { name: 'countXaudit' }] });
    const byDefault = await repo.queryJobs({ limit: 1 });
    expect(byDefault.jobs.map((job) => job.name)).toEqual(['notify']);
    const ids = page.jobs.map((job) => job._id);
    expect((await repo.queryJobs({ ids })).total).toBe(2);
    expect((await repo.queryJobs({ id: ids[0] })).jobs[0]?._id).toBe(ids[0]);
    expect((await repo.queryJobs({ id: 'nope' })).total).toBe(0);
  });
});

describe(SqliteJobLogger.name, () => {
  it('stores, filters, pages and clears job events', async () => {
    const logger = new SqliteJobLogger({ dataSource: db.dataSource });
    const base = { jobName: 'count', message: 'm', jobId: 'j1' };
    const second = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n));
    await logger.log({ ...base, timestamp: second(0), level: 'info', event: 'start' });
    await logger.log({ ...base, timestamp: second(1), level: 'error', event: 'fail', error: 'boom', meta: { a: 1 } });
    await logger.log({ ...base, jobName: 'other', timestamp: second(2), level: 'info', event: 'success', duration: 5 });
    const newest = await logger.getLogs({ limit: 1 });
    expect(newest).toMatchObject({ total: 3, entries: [{ jobName: 'other', duration: 5 }] });
    expect((await logger.getLogs({ level: ['error', 'warn'] })).entries[0]).toMatchObject({ error: 'boom', meta: { a: 1 } });
    expect((await logger.getLogs({ jobName: 'count', sort: 'asc' })).entries.map((e) => e.event)).toEqual(['start', 'fail']);
    expect((await logger.getLogs({ from: second(1), to: second(1) })).total).toBe(1);
    expect(await logger.clearLogs({ event: 'start' })).toBe(1);
    expect(await logger.clearLogs()).toBe(2);
  });
});
