import 'reflect-metadata';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { generateApiKey } from '../../src/services/credentials/api-key.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { createHttp, type Http } from '../support/http.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { allChanges, AUDIT_APP_ENV, eventually, tableRows } from './audit-support.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** One data folder (SQLite file, secret key, sandbox state), started as `npm start` would start it again. */
function dataFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'basewatch-audit-restart-'));
  dirs.push(dir);
  const apiKey = generateApiKey();
  const lines: Array<Record<string, unknown>> = [];
  const start = async (env: Record<string, string> = {}): Promise<{ running: RunningServer; http: Http }> => {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'basewatch.sqlite')}`,
      BOOTSTRAP_API_KEY: apiKey,
      LOG_LEVEL: 'info',
      ...AUDIT_APP_ENV,
      ...env,
    });
    const running = await startServer(
      config,
      createLogger(config.logLevel, { write: (line: string) => void lines.push(JSON.parse(line)) }),
    );
    running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
    return { running, http: createHttp(running.url, apiKey) };
  };
  return { dir, start, lines };
}

async function catalogSuppliers(http: Http, url: string) {
  const api = sandboxApi(url);
  const baseId = await upstreamBaseId(http, DEMO_BASES.catalog);
  const suppliers = (await api.schema(baseId)).find((t) => t.name === 'Suppliers')!;
  const primary = suppliers.fields.find((f) => f.id === suppliers.primaryFieldId)!.name;
  return { api, baseId, tableId: suppliers.id, add: (name: string) => api.createRecords(baseId, suppliers.id, [{ [primary]: name }]) };
}

const written = (http: Http, configId: string, count: number) =>
  eventually(
    () => allChanges(http, configId),
    (list) => list.length >= count && list.every((r) => r.monitoringRecordId !== null),
  );

describe('a restart on the same data folder', () => {
  it('keeps the sandbox upstream: a change made after it is logged into the same Changes table', async () => {
    const folder = dataFolder();
    const first = await folder.start();
    const monitoringBaseId = await upstreamBaseId(first.http, DEMO_BASES.changeLog);
    const before = await catalogSuppliers(first.http, first.running.url);
    const created = await first.http('POST', '/monitoring-config', {
      body: { baseId: before.baseId, monitoringBaseId, scope: 'records_only' },
    });
    expect(created.status).toBe(201);
    const { id: configId, monitoringTableId } = created.body.config;
    const [record] = (await before.add('Before the restart')).records;
    await written(first.http, configId, 1);
    const rowsBefore = await tableRows(before.api, monitoringBaseId, monitoringTableId);
    await first.running.close();
    expect(existsSync(join(folder.dir, 'sandbox-state.json'))).toBe(true);

    const second = await folder.start();
    try {
      const after = await catalogSuppliers(second.http, second.running.url);
      expect(after.baseId).toBe(before.baseId);
      expect(second.running.sandbox!.store.getRecord(before.baseId, before.tableId, record.id)).toBeDefined();
      const [made] = (await after.add('After the restart')).records;
      expect(made.id).not.toBe(record.id);
      const records = await written(second.http, configId, 2);
      expect(records.map((r) => Object.values(r.after ?? {})[0])).toEqual(['After the restart', 'Before the restart']);
      const rows = await tableRows(after.api, monitoringBaseId, monitoringTableId);
      expect(rows.map((r) => r.id)).toEqual([...rowsBefore.map((r) => r.id), records[0]!.monitoringRecordId]);
      expect((await second.http('GET', `/monitoring-config/${configId}/status`)).body.status.state).toBe('ok');
    } finally {
      await second.running.close();
    }
  });

  it('runs the upkeep at start-up: a Changes table deleted while the service was down shows at once', async () => {
    const folder = dataFolder();
    const first = await folder.start({ SCHEDULER_RUN_JOBS: 'false' });
    const monitoringBaseId = await upstreamBaseId(first.http, DEMO_BASES.changeLog);
    const { api, baseId } = await catalogSuppliers(first.http, first.running.url);
    const created = await first.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId } });
    const { id: configId, monitoringTableId } = created.body.config;
    // Deleted while nothing runs jobs; no change is made afterwards, so only the upkeep can notice.
    await api.deleteTable(monitoringBaseId, monitoringTableId);
    await first.running.close();
    expect(folder.lines.some((line) => line.msg === 'audit upkeep')).toBe(false);

    const second = await folder.start();
    try {
      const status = await eventually(
        async () => (await second.http('GET', `/monitoring-config/${configId}/status`)).body.status,
        (s) => s.state !== 'ok',
        10_000,
      );
      expect(status).toMatchObject({ state: 'changes_table_missing', lastError: expect.stringContaining(monitoringTableId) });
      // The state is stored as the upkeep checks configs; its log line follows once it has refreshed the watches too.
      const upkeep = await eventually(
        async () => folder.lines.find((line) => line.msg === 'audit upkeep'),
        (line) => line !== undefined,
        10_000,
      );
      expect(upkeep).toMatchObject({ configs: { checked: 1, missing: 1 }, refreshed: 1 });
    } finally {
      await second.running.close();
    }
  });
});
