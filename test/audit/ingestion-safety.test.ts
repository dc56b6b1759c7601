import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { allChanges, AUDIT_APP_ENV, eventually, logCatalogSuppliers, relaxSandboxRateLimit, tableRows } from './audit-support.js';

describe('ingestion: pings, replays, failures', () => {
  let app: TestApp;
  let api: SandboxApi;
  let baseId: string;
  let monitoringBaseId: string;
  let configId: string;
  let tableId: string;
  let primaryName: string;

  beforeAll(async () => {
    app = await startTestApp({ ...AUDIT_APP_ENV, UPSTREAM_TIMEOUT_MS: '1500' });
    relaxSandboxRateLimit(app);
    api = sandboxApi(app.url);
    ({ baseId, monitoringBaseId, configId, tableId, primaryName } = await logCatalogSuppliers(app, api));
  });
  afterAll(() => app?.close());

  const watch = async () => (await app.running.services.watches.find({ baseId }))!;
  const ping = async (mac: string | null, body?: string) => {
    const w = await watch();
    const raw = body ?? JSON.stringify({ base: { id: baseId }, webhook: { id: w.webhookId }, timestamp: new Date().toISOString() });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (mac !== null) headers['x-airtable-content-mac'] = mac;
    return fetch(`${app.url}/upstream/notifications`, { method: 'POST', headers, body: raw });
  };
  const macOf = async (raw: string) => {
    const secret = app.running.services.secrets.open((await watch()).macSecret);
    return `hmac-sha256=${createHmac('sha256', Buffer.from(secret, 'base64')).update(raw).digest('hex')}`;
  };
  const addRecord = (name: string) => api.createRecords(baseId, tableId, [{ [primaryName]: name }]);
  const logged = () => allChanges(app.http, configId);

  it('answers a ping with a valid MAC with 204 and refuses a wrong or missing MAC with 401, queuing nothing', async () => {
    const w = await watch();
    const raw = JSON.stringify({ base: { id: baseId }, webhook: { id: w.webhookId }, timestamp: new Date().toISOString() });
    // The sandbox's own pings would move lastPingAt too: switch them off while probing.
    await app.running.services.upstream.setWebhookNotifications(baseId, w.webhookId, false);
    await new Promise((r) => setTimeout(r, 300));
    const before = (await watch()).lastPingAt;
    const wrong = await ping(`hmac-sha256=${'0'.repeat(64)}`, raw);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: expect.any(String), code: 'unauthorized' });
    const missing = await ping(null, raw);
    expect(missing.status).toBe(401);
    const forged = await ping(await macOf(raw), raw.replace(baseId, 'appAAAAAAAAAAAAAA'));
    expect(forged.status).toBe(401);
    expect((await watch()).lastPingAt).toEqual(before);

    const ok = await ping(await macOf(raw), raw);
    expect(ok.status).toBe(204);
    expect(await ok.text()).toBe('');
    expect((await watch()).lastPingAt).not.toEqual(before);
    await app.running.services.upstream.setWebhookNotifications(baseId, w.webhookId, true);
  });

  it('makes no duplicate entry from a storm of duplicate pings', async () => {
    const start = (await logged()).length;
    await addRecord('Storm supplier');
    const raw = JSON.stringify({ base: { id: baseId }, webhook: { id: (await watch()).webhookId }, timestamp: new Date().toISOString() });
    const mac = await macOf(raw);
    const answers = await Promise.all(Array.from({ length: 40 }, () => ping(mac, raw)));
    expect(answers.every((a) => a.status === 204)).toBe(true);
    await eventually(logged, (list) => list.length >= start + 1);
    await new Promise((r) => setTimeout(r, 1_500));
    const after = await logged();
    expect(after).toHaveLength(start + 1);
    expect(new Set(after.map((r) => r.id)).size).toBe(after.length);
    expect(Object.values(after[0]!.after ?? {})).toContain('Storm supplier');
  });

  it('loses nothing and logs nothing twice when a page fails after its payloads were fetched', async () => {
    const start = (await logged()).length;
    const cursorBefore = (await watch()).payloadCursor;
    let failures = 0;
    // A sink that fails inside the ingestion transaction: like a crash between fetching and committing.
    app.running.services.changeIngest.addSink({
      accept: async () => {
        if (failures < 2) {
          failures += 1;
          throw new Error('simulated crash before commit');
        }
      },
    });
    await addRecord('Crash supplier A');
    await addRecord('Crash supplier B');
    const records = await eventually(logged, (list) => list.length >= start + 2);
    expect(failures).toBe(2);
    expect(records).toHaveLength(start + 2);
    expect(records.slice(0, 2).flatMap((r) => Object.values(r.after ?? {}))).toEqual(
      expect.arrayContaining(['Crash supplier A', 'Crash supplier B']),
    );
    expect((await watch()).payloadCursor).toBeGreaterThan(cursorBefore);
  });

  it('writes exactly one Changes-table row per entry after an outage and after lost answers', async () => {
    const config = (await app.http('GET', `/monitoring-config/${configId}`)).body.config;
    const faults = app.running.sandbox!.faults;
    // Outage: as soon as entries are committed, every upstream request fails with 503 for a while.
    let phase = 0;
    app.running.services.changeIngest.onEntriesLogged(() => {
      if (phase === 1) faults.update({ errorRate: 1, errorStatus: 503 });
      if (phase === 2) faults.update({ latencyMs: 2_500 });
    });
    phase = 1;
    await addRecord('Outage supplier 1');
    await addRecord('Outage supplier 2');
    await eventually(
      async () => (await app.running.services.changeWriter.pending()).length,
      (n) => n > 0,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    faults.update({ errorRate: 0 });
    // Lost answers: the sandbox writes the rows but answers after the client gave up (timeout 1.5 s).
    phase = 2;
    await addRecord('Slow supplier');
    // The write timed out with the rows possibly written: they wait, marked, for the look-up before any resend.
    const uncertain = await eventually(
      async () =>
        Number((await app.running.dataSource.query('SELECT COUNT(*) AS n FROM change_outbox WHERE batch_token IS NOT NULL'))[0].n),
      (n) => n > 0,
    );
    expect(uncertain).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 3_000));
    phase = 0;
    faults.update({ latencyMs: 0 });

    const records = await eventually(logged, (list) => list.every((r) => r.monitoringRecordId !== null), 30_000);
    expect(records.every((r) => r.monitoringRecordId !== null)).toBe(true);
    const rows = await tableRows(api, monitoringBaseId, config.monitoringTableId);
    const entryIds = rows.map((row) => row.fields['Entry ID'] as string);
    expect(new Set(entryIds).size).toBe(entryIds.length);
    expect(entryIds.sort()).toEqual(records.map((r) => r.id).sort());
  });
});
