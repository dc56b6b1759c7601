import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_TOKEN } from '../../src/config.js';
import type { SandboxChange } from '../../src/sandbox/sandbox-change.types.js';
import { generateApiKey } from '../../src/services/credentials/api-key.js';
import { until } from '../support/eventually.js';
import { DEMO_BASES } from '../support/factories.js';
import { createHttp, type Http } from '../support/http.js';
import { builtServiceMain } from '../support/built-service.js';
import { startBuiltService, type ServiceProcess } from '../support/processes.js';
import { startTestApp } from '../support/test-app.js';

const dir = mkdtempSync(join(tmpdir(), 'basewatch-restore-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RECORDS = 60;
/** How long a step may take on a busy machine (an upper bound, not a measurement). */
const WAIT_MS = 60_000;

interface RestoreBody {
  status: string;
  progress: { done: number; total: number };
  createdRecordIds: Record<string, string>;
}

describe('a restore killed mid-way (SIGKILL)', () => {
  it(
    'resumes on the same database and creates every record exactly once',
    async () => {
      // The upstream lives in this process (the test's app and its sandbox), so the service can die and restart.
      const upstream = await startTestApp();
      const services: ServiceProcess[] = [];
      try {
        const sandbox = upstream.running.sandbox!;
        sandbox.faults.update({ rateLimitPerSecond: 1_000 });
        const apiKey = generateApiKey();
        const databaseFile = join(dir, 'restore-kill.sqlite');
        const env = {
          DATABASE_URL: `sqlite:${databaseFile}`,
          BOOTSTRAP_API_KEY: apiKey,
          AIRTABLE_TOKEN: DEFAULT_SANDBOX_TOKEN,
          AIRTABLE_API_URL: `${upstream.url}/sandbox/airtable`,
          UPSTREAM_TIMEOUT_MS: '10000',
          JOBS_PROCESS_EVERY_MS: '50',
          // The killed process leaves its restore job locked: it is taken over once the lock has lapsed.
          JOBS_LOCK_LIFETIME_MS: '2000',
          AUDIT_POLL_INTERVAL_SECONDS: '1',
          // A batch whose records are not in the mirror after a restart is sent again 4 s after it was first sent; a
          // batch of creates is given up after half of that, longer than the 1.5 s the upstream takes below.
          MIRROR_RESTORE_SETTLE_MS: '4000',
        };
        const bases = sandbox.store.listBases();
        const watched = bases.find((b) => b.name === DEMO_BASES.catalog)!;
        const log = bases.find((b) => b.name === DEMO_BASES.changeLog)!;
        const table = watched.tables.find((t) => t.name === 'Suppliers')!;
        const emailId = table.fields.find((f) => f.name === 'Email')!.id;
        const tableSize = () => sandbox.store.getTable(watched.id, table.id)!.records.size;

        // The built service (node dist/…), as a deployment runs it: it starts in a second where tsx compiles first.
        const main = await builtServiceMain();
        const startService = () => startBuiltService(env, main);
        services.push(await startService());
        let http: Http = createHttp(services[0]!.url, apiKey);
        const created = await http('POST', '/monitoring-config', {
          body: { baseId: watched.id, monitoringBaseId: log.id, scope: 'records_only' },
        });
        expect(created.status).toBe(201);
        const config = `/monitoring-config/${created.body.config.id}`;
        const suppliersInMirror = async () =>
          (
            (await http('GET', `${config}/mirror`)).body.mirror as {
              status: string;
              tables: Array<{ tableId: string; recordCount: number }>;
            }
          )?.tables.find((t) => t.tableId === table.id)?.recordCount;
        await until(suppliersInMirror, (count) => count === tableSize(), WAIT_MS);

        // 60 records made and deleted upstream; the mirror keeps their values.
        const before = tableSize();
        const values = Array.from({ length: RECORDS }, (_, i) => ({
          [table.primaryFieldId]: `Kill restore ${i}`,
          [emailId]: `kill${i}@example.com`,
        }));
        const deletedIds = sandbox.store.createRecords(watched.id, table.id, values).map((record) => record.id);
        await until(suppliersInMirror, (count) => count === before + RECORDS, WAIT_MS);
        sandbox.store.deleteRecords(watched.id, table.id, deletedIds);
        await until(suppliersInMirror, (count) => count === before, WAIT_MS);

        const restoreRow = () => {
          const database = new Database(databaseFile, { readonly: true });
          try {
            return database.prepare('SELECT done, in_flight_json FROM mirror_restore').get() as {
              done: number;
              in_flight_json: string | null;
            };
          } finally {
            database.close();
          }
        };

        // Kill one: the sandbox makes the second batch of creates, and the service dies before it has the answer.
        let batches = 0;
        const killOnSecondBatch = (change: SandboxChange) => {
          if (change.kind !== 'recordsCreated' || change.tableId !== table.id) return;
          batches += 1;
          if (batches === 2) services[0]!.child.kill('SIGKILL');
        };
        sandbox.events.on('change', killOnSecondBatch);
        const started = await http('POST', `${config}/restores`, { body: { tableId: table.id, recordIds: deletedIds } });
        expect(started.status).toBe(202);
        expect(started.body.restore).toMatchObject({ create: RECORDS, progress: { done: 0, total: RECORDS } });
        const restorePath = `${config}/restores/${started.body.restore.id}`;
        const restore = async () => (await http('GET', restorePath)).body.restore as RestoreBody;
        await services[0]!.exited;
        sandbox.events.off('change', killOnSecondBatch);
        expect(restoreRow()).toMatchObject({ done: 10, in_flight_json: expect.any(String) });
        expect(tableSize()).toBe(before + 20);

        // Kill two: every upstream answer takes 1.5 s, and the service dies while a batch waits in the sandbox: that
        // request is dropped with its connection, nothing is made.
        sandbox.faults.update({ latencyMs: 1_500 });
        services.push(await startService());
        http = createHttp(services[1]!.url, apiKey);
        await until(restore, (r) => r.progress.done >= 30, WAIT_MS);
        // The next batch is noted and sent at once; the sandbox would handle it 1.5 s later, after the kill.
        await new Promise((resolve) => setTimeout(resolve, 300));
        services[1]!.child.kill('SIGKILL');
        await services[1]!.exited;
        const second = restoreRow();
        expect(second.done).toBeGreaterThanOrEqual(30);
        expect(second.done).toBeLessThanOrEqual(50);
        expect(second.in_flight_json).not.toBeNull();
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        expect(tableSize()).toBe(before + second.done);
        sandbox.faults.update({ latencyMs: 0 });

        services.push(await startService());
        http = createHttp(services[2]!.url, apiKey);
        const done = await until(restore, (r) => r.status === 'done', WAIT_MS);
        expect(done.progress).toEqual({ done: RECORDS, total: RECORDS });
        expect(Object.keys(done.createdRecordIds).sort()).toEqual([...deletedIds].sort());
        const newIds = Object.values(done.createdRecordIds);
        expect(new Set(newIds).size).toBe(RECORDS);

        // Exactly 60 new records upstream, each with its restored values, none twice.
        expect(tableSize()).toBe(before + RECORDS);
        const restored = [...sandbox.store.getTable(watched.id, table.id)!.records.values()].filter((record) =>
          String(record.cellsByFieldId[table.primaryFieldId]).startsWith('Kill restore '),
        );
        expect(restored.map((record) => record.id).sort()).toEqual([...newIds].sort());
        for (const [i, oldId] of deletedIds.entries()) {
          const record = sandbox.store.getRecord(watched.id, table.id, done.createdRecordIds[oldId]!)!;
          expect(record.cellsByFieldId).toMatchObject(values[i]!);
        }
      } finally {
        for (const service of services) if (service.child.exitCode === null) service.child.kill('SIGTERM');
        await Promise.all(services.map((service) => service.exited));
        await upstream.close();
      }
    },
    8 * WAIT_MS,
  );
});
