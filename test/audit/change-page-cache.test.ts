import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/http.js';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { AUDIT_APP_ENV, eventually, logCatalogSuppliers, relaxSandboxRateLimit, type ChangeRecord } from './audit-support.js';

/**
 * Change pages are kept rendered under the config's changes version (changes.routes.ts). The same URL, read again,
 * must still show every later write: a new change, its Changes-table row id once written, and pruning.
 */
describe('a change page read again', () => {
  let app: TestApp;
  let api: SandboxApi;
  let baseId: string;
  let configId: string;
  let tableId: string;
  let primaryName: string;

  beforeAll(async () => {
    app = await startTestApp(AUDIT_APP_ENV);
    relaxSandboxRateLimit(app);
    api = sandboxApi(app.url);
    ({ baseId, configId, tableId, primaryName } = await logCatalogSuppliers(app, api));
  });
  afterAll(() => app?.close());

  const PAGE = '?limit=5';
  const read = (headers: Record<string, string> = {}): Promise<ApiResponse<{ records: ChangeRecord[] }>> =>
    app.http('GET', `/monitoring-config/${configId}/changes${PAGE}`, { headers });
  const byName = (records: ChangeRecord[], name: string) => records.find((r) => Object.values(r.after ?? {}).includes(name));

  it('shows a new change, then its monitoringRecordId once the Changes table has it, each with a new ETag', async () => {
    const faults = app.running.sandbox!.faults;
    // The Changes-table write must come after a read that saw the entry without it: the upstream fails from the
    // moment the entry is committed until the test lets it through.
    let holdWrites = true;
    app.running.services.changeIngest.onEntriesLogged(() => {
      if (holdWrites) faults.update({ errorRate: 1, errorStatus: 503 });
    });

    const before = await read();
    expect(before.status).toBe(200);
    const firstTag = before.headers.get('etag')!;
    expect(firstTag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(before.headers.get('cache-control')).toBe('private, no-cache');
    expect((await read({ 'if-none-match': firstTag })).status).toBe(304);

    await api.createRecords(baseId, tableId, [{ [primaryName]: 'Cached page supplier' }]);
    const logged = await eventually(read, (res) => byName(res.body.records, 'Cached page supplier') !== undefined);
    const entry = byName(logged.body.records, 'Cached page supplier')!;
    expect(entry.eventType).toBe('record_create');
    expect(entry.monitoringRecordId).toBeNull();
    const loggedTag = logged.headers.get('etag')!;
    expect(loggedTag).not.toBe(firstTag);
    expect((await read({ 'if-none-match': firstTag })).status).toBe(200);
    expect((await read({ 'if-none-match': loggedTag })).status).toBe(304);

    holdWrites = false;
    faults.update({ errorRate: 0 });
    const written = await eventually(read, (res) => byName(res.body.records, 'Cached page supplier')?.monitoringRecordId != null);
    expect(byName(written.body.records, 'Cached page supplier')!.monitoringRecordId).toMatch(/^rec[A-Za-z0-9]{14}$/);
    expect(written.headers.get('etag')).not.toBe(loggedTag);
  });

  it('shows pruned entries gone', async () => {
    const before = await read();
    expect(before.body.records.length).toBeGreaterThan(0);
    // A year from now, every entry of this test is past the 180-day retention.
    const pruned = await app.running.services.changeRetention.prune(new Date(Date.now() + 365 * 86_400_000));
    expect(pruned).toBeGreaterThanOrEqual(before.body.records.length);
    const after = await read();
    expect(after.status).toBe(200);
    expect(after.body.records).toEqual([]);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });
});
