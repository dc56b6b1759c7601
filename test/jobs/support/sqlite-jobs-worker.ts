/**
 * A second process on the jobs database, for the cross-process tests:
 *   node --import tsx sqlite-jobs-worker.ts <lock|save> <database path>
 * Prints `ready`, waits for a line on stdin, then either locks due `contended` jobs until none is left (`lock`) or
 * upserts one unique job per base several times over (`save`), and prints the ids it got as JSON.
 */
import 'reflect-metadata';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase } from '../../../src/database.js';
import { SqliteJobRepository } from '../../../src/jobs/backends/sqlite/index.js';

const [mode, path] = process.argv.slice(2);
const dataSource = await openDatabase({ type: 'sqlite', path: path! });
const repository = new SqliteJobRepository({ dataSource });
// The parent says go once every process is ready, so that they really contend.
process.stdout.write('ready\n');
await once(process.stdin, 'data');

const ids: string[] = [];
if (mode === 'lock') {
  for (;;) {
    const job = await repository.getNextJobToRun('contended', new Date(), new Date(0), undefined, undefined);
    if (!job) break;
    ids.push(String(job._id));
    // A job takes a moment to run, as in a real worker; without it, on a loaded machine two processes could drain
    // the queue before the third is scheduled at all, and the test would prove no contention.
    await sleep(4);
  }
} else {
  for (let round = 0; round < 5; round++) {
    for (let base = 0; base < 20; base++) {
      const usageBaseId = `b${base}`;
      const job = await repository.saveJob(
        {
          name: 'per-base',
          priority: 0,
          type: 'normal',
          nextRunAt: new Date(),
          data: { usageBaseId, pid: process.pid },
          unique: { 'data.usageBaseId': usageBaseId },
        },
        undefined,
      );
      ids.push(String(job._id));
    }
  }
}
process.stdout.write(`${JSON.stringify(ids)}\n`);
await dataSource.destroy();
process.stdin.destroy();
