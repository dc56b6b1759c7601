import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteJobRepository } from '../../src/jobs/backends/sqlite/index.js';
import { minutesFromNow, newJob, openJobsDatabase, type JobsDatabase } from './support/sqlite-jobs.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKER = fileURLToPath(new URL('./support/sqlite-jobs-worker.ts', import.meta.url));
const PROCESSES = 3;

let db: JobsDatabase;
beforeEach(async () => {
  db = await openJobsDatabase();
});
afterEach(async () => db.close());

/** Runs the worker in separate Node processes and lets them all start working at the same instant. */
async function inProcesses(mode: 'lock' | 'save'): Promise<string[][]> {
  const workers = Array.from({ length: PROCESSES }, () => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, mode, db.path], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const ready = new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.startsWith('ready\n')) resolve();
      }),
    );
    const exited = new Promise<string[]>((resolve, reject) =>
      child.once('exit', (code) =>
        code === 0
          ? resolve(JSON.parse(stdout.slice('ready\n'.length)) as string[])
          : reject(new Error(`worker exited with ${code}: ${stderr}`)),
      ),
    );
    return { child, ready, exited };
  });
  await Promise.all(workers.map((worker) => worker.ready));
  for (const { child } of workers) child.stdin.write('go\n');
  return Promise.all(workers.map((worker) => worker.exited));
}

describe(`${SqliteJobRepository.name} across processes`, () => {
  it('never hands one job to two processes', async () => {
    for (let i = 0; i < 600; i++) {
      await db.repository.saveJob(newJob({ name: 'contended', nextRunAt: minutesFromNow(-1) }), undefined);
    }
    const perProcess = await inProcesses('lock');
    const ids = perProcess.flat();
    expect(ids).toHaveLength(600);
    expect(new Set(ids).size).toBe(600);
    // Each process got some: they did contend rather than run one after the other.
    expect(perProcess.filter((got) => got.length > 0)).toHaveLength(PROCESSES);
  });

  it('keeps one job per unique key when processes upsert it at the same time', async () => {
    const perProcess = await inProcesses('save');
    expect(new Set(perProcess.flat()).size).toBe(20);
    expect((await db.repository.queryJobs({ name: 'per-base' })).total).toBe(20);
  });
});
