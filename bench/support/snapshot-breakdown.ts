import Database from 'better-sqlite3';
import { snapshotDayJson } from '../../src/rest/usage.mappers.js';
import type { RunningServer } from '../../src/server.js';
import { loadConfig } from '../../src/config.js';
import { AccountService } from '../../src/services/account.service.js';
import { median } from './percentiles.js';

export interface Phase {
  name: string;
  medianMs: number;
}

export interface BreakdownTarget {
  running: RunningServer;
  databasePath: string;
  apiKey: string;
  accountId: string;
  usageBaseId: string;
  limit: number;
}

const WARM_UP = 10;
const ITERATIONS = 50;

// Written out to time the driver alone; the statement SnapshotService builds with TypeORM.
const PAGE_SQL =
  'SELECT "date", "record_count", "storage_bytes", "file_count", "table_count", "tables_json" FROM "usage_snapshot" "s" ' +
  'WHERE usage_base_id = ? ORDER BY date DESC LIMIT ?';

/**
 * Times the steps of serving one page of snapshots in-process, without load. Every iteration starts from freshly
 * read rows, as a request does: reusing one page would time copies of strings V8 has already flattened.
 */
export async function measureSnapshotPhases(target: BreakdownTarget): Promise<{ phases: Phase[]; bodyBytes: number }> {
  const { running, apiKey, accountId, usageBaseId, limit } = target;
  const { services } = running;
  const steps = [
    'authenticate the API key (kept for a few seconds after a lookup)',
    'SnapshotService.list (ownership check, SQL, mapping)',
    'build the JSON body (as usage.routes does)',
    'encode it as UTF-8 (Buffer.from, as res.send does)',
  ];
  const times: number[][] = steps.map(() => []);
  let bodyBytes = 0;
  for (let i = 0; i < WARM_UP + ITERATIONS; i++) {
    const marks = [performance.now()];
    await services.accounts.authenticate(apiKey);
    marks.push(performance.now());
    const page = await services.snapshots.list(accountId, usageBaseId, { limit });
    marks.push(performance.now());
    const body = `{"baseId":${JSON.stringify(page.baseId)},"days":[${page.days.map(snapshotDayJson).join(',')}]}`;
    marks.push(performance.now());
    bodyBytes = Buffer.from(body).length;
    marks.push(performance.now());
    if (i >= WARM_UP) for (const step of steps.keys()) times[step].push(marks[step + 1] - marks[step]);
  }
  const phases = steps.map((name, step) => ({ name, medianMs: median(times[step]) }));
  // A fresh service has nothing kept, so this times the database lookup every request paid before.
  const miss = await phase('authenticate the API key on a miss (one joined query)', () =>
    new AccountService(running.dataSource, loadConfig({}).quotas).authenticate(apiKey),
  );
  phases.splice(1, 0, miss);
  phases.splice(3, 0, ...(await driverPhases(target)));
  return { phases, bodyBytes };
}

async function driverPhases({ running, databasePath, usageBaseId, limit }: BreakdownTarget): Promise<Phase[]> {
  const driver = new Database(databasePath, { readonly: true });
  try {
    const statement = driver.prepare(PAGE_SQL);
    return [
      await phase(`… of which the SQL alone: ${limit + 1} rows via better-sqlite3`, () => statement.all(usageBaseId, limit + 1)),
      await phase(`… the same via TypeORM dataSource.query`, () => running.dataSource.query(PAGE_SQL, [usageBaseId, limit + 1])),
    ];
  } finally {
    driver.close();
  }
}

async function phase(name: string, run: () => unknown): Promise<Phase> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + ITERATIONS; i++) {
    const started = performance.now();
    await run();
    if (i >= WARM_UP) times.push(performance.now() - started);
  }
  return { name, medianMs: median(times) };
}
