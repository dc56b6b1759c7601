import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { allChanges, AUDIT_APP_ENV, eventually, logCatalogSuppliers, relaxSandboxRateLimit } from './audit-support.js';

/**
 * The ping route (POST /upstream/notifications) and what pings lead to through the jobs. The MAC rules, concurrent
 * reads, a failed page and writes through outages and lost answers: test/services/change-ingest.service.test.ts.
 */
describe('ingestion: pings', () => {
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

  it('answers a ping with a valid MAC with 204 and an empty body, and a wrong one with 401 {message, code}', async () => {
    const w = await watch();
    const raw = JSON.stringify({ base: { id: baseId }, webhook: { id: w.webhookId }, timestamp: new Date().toISOString() });
    // The sandbox's own pings would move lastPingAt too: switch them off while probing.
    await app.running.services.upstream.setWebhookNotifications(baseId, w.webhookId, false);
    await new Promise((r) => setTimeout(r, 300));
    const before = (await watch()).lastPingAt;
    const wrong = await ping(`hmac-sha256=${'0'.repeat(64)}`, raw);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: expect.any(String), code: 'unauthorized' });
    expect((await ping(null, raw)).status).toBe(401);
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
});
