import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobParameters } from 'agenda';
import type { DataSource } from 'typeorm';
import { openDatabase } from '../../../src/database.js';
import { SqliteJobRepository } from '../../../src/jobs/backends/sqlite/index.js';

export interface JobsDatabase {
  path: string;
  dataSource: DataSource;
  repository: SqliteJobRepository;
  /** Another connection (its own DataSource) to the same file, as a second process would have. */
  openAnother(): Promise<{ dataSource: DataSource; repository: SqliteJobRepository }>;
  close(): Promise<void>;
}

/** A fresh, migrated SQLite file in a temp directory. */
export async function openJobsDatabase(): Promise<JobsDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'basewatch-jobs-'));
  const path = join(dir, 'jobs.sqlite');
  const dataSource = await openDatabase({ type: 'sqlite', path });
  const others: DataSource[] = [];
  return {
    path,
    dataSource,
    repository: new SqliteJobRepository({ dataSource }),
    async openAnother() {
      const other = await openDatabase({ type: 'sqlite', path });
      others.push(other);
      return { dataSource: other, repository: new SqliteJobRepository({ dataSource: other }) };
    },
    async close() {
      for (const source of [...others, dataSource]) await source.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const minutesFromNow = (minutes: number, from = new Date()): Date => new Date(from.getTime() + minutes * 60_000);

/** A job as `Job.toJson(true)` hands it to `saveJob`: no id, no processor-managed keys. */
export function newJob<DATA = Record<string, unknown>>(overrides: Partial<JobParameters<DATA>> & { name: string }): JobParameters<DATA> {
  return { priority: 0, nextRunAt: new Date(), type: 'normal', data: {} as DATA, ...overrides };
}
