import { randomUUID } from 'node:crypto';
import { PostgresJobRepository } from '@agendajs/postgres-backend';
import { Agenda } from 'agenda';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresJobBackend, setUpPostgresJobStore } from '../../src/jobs/backends/postgres/postgres-job-backend.js';
import { UNIQUE_JOBS } from '../../src/jobs/unique-jobs.js';
import { AgendaUsageJobStore, COUNT_USAGE_JOB } from '../../src/jobs/usage-job-store.js';
import { admin, createTestDatabase, query } from '../support/postgres.js';

const available = await admin('SELECT 1');
const drops: Array<() => Promise<void>> = [];

async function newDatabase(): Promise<string> {
  const database = await createTestDatabase();
  drops.push(database.drop);
  return database.url;
}

const jobsPerBase = (url: string) =>
  query<{ base: string; jobs: number }>(
    url,
    `SELECT data->>'usageBaseId' AS base, count(*)::int AS jobs FROM agenda_jobs WHERE name = $1 GROUP BY 1`,
    [COUNT_USAGE_JOB],
  );

describe.skipIf(!available)('one job per base on the PostgreSQL job store', () => {
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  it('keeps one job per base when two schedulers, each with its own connections, save the same 90 bases at once', async () => {
    const url = await newDatabase();
    await setUpPostgresJobStore(url, UNIQUE_JOBS);
    const backends = [new PostgresJobBackend(url), new PostgresJobBackend(url)];
    try {
      await Promise.all(backends.map((backend) => backend.connect()));
      const stores = backends.map((backend) => new AgendaUsageJobStore(new Agenda({ backend })));
      const bases = Array.from({ length: 90 }, () => randomUUID());
      const at = new Date(Date.now() + 3_600_000);
      await Promise.all(stores.flatMap((store) => bases.map((base) => store.set(base, at))));

      const perBase = await jobsPerBase(url);
      expect(perBase).toHaveLength(90);
      expect(perBase.filter((row) => row.jobs !== 1)).toEqual([]);
      // A save that lost the race updated the winner's job: both see the same single row.
      expect((await stores[1]!.all()).size).toBe(90);
    } finally {
      await Promise.all(backends.map((backend) => backend.disconnect()));
    }
  }, 60_000);

  it('removes the duplicates an earlier version left, keeping a locked job, when it sets up the store', async () => {
    const url = await newDatabase();
    const base = randomUUID();
    const other = randomUUID();
    // The store as it was: Agenda's own schema, and duplicates saved before the unique index existed.
    const earlier = new PostgresJobRepository({ connectionString: url });
    await earlier.connect();
    const insert = (usageBaseId: string, lockedAt: Date | null) =>
      query(url, 'INSERT INTO agenda_jobs (name, data, locked_at) VALUES ($1, $2, $3)', [COUNT_USAGE_JOB, { usageBaseId }, lockedAt]);
    await insert(base, null);
    await insert(base, new Date());
    await insert(base, null);
    await insert(other, null);
    await earlier.disconnect();

    await setUpPostgresJobStore(url, UNIQUE_JOBS);
    const rows = await query<{ base: string; locked: boolean }>(
      url,
      `SELECT data->>'usageBaseId' AS base, locked_at IS NOT NULL AS locked FROM agenda_jobs ORDER BY 1`,
    );
    expect(rows).toEqual(
      [
        { base, locked: true },
        { base: other, locked: false },
      ].sort((a, b) => (a.base < b.base ? -1 : 1)),
    );
    await expect(insert(other, null)).rejects.toMatchObject({ code: '23505' });
  });
});
