import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { allChanges, AUDIT_APP_ENV, eventually, relaxSandboxRateLimit } from './audit-support.js';

/**
 * Reading changes by the poll job (the scheduler's audit.poll) when no ping comes. The upkeep's refresh and re-creation
 * of upstream webhooks, and the log's retention: test/services/upstream-watch.service.test.ts.
 */
describe('upstream watch polling', () => {
  let app: TestApp;
  let baseId: string;
  let configId: string;

  beforeAll(async () => {
    app = await startTestApp(AUDIT_APP_ENV);
    relaxSandboxRateLimit(app);
    baseId = await upstreamBaseId(app.http, DEMO_BASES.marketing);
    const monitoringBaseId = await upstreamBaseId(app.http, DEMO_BASES.changeLog);
    configId = (await app.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId } })).body.config.id;
  });
  afterAll(() => app?.close());

  const watch = async () => (await app.running.services.watches.find({ baseId }))!;

  it('reads changes by polling when no ping comes (notifications off upstream)', async () => {
    const { services } = app.running;
    const w = await watch();
    await services.upstream.setWebhookNotifications(baseId, w.webhookId, false);
    const pingedBefore = (await watch()).lastPingAt;
    const api = sandboxApi(app.url);
    const [table] = await api.schema(baseId);
    await api.createRecords(baseId, table!.id, [{ [table!.fields.find((f) => f.id === table!.primaryFieldId)!.name]: 'Polled' }]);
    const records = await eventually(
      () => allChanges(app.http, configId),
      (list) => list.some((r) => Object.values(r.after ?? {}).includes('Polled')),
    );
    expect(records.some((r) => Object.values(r.after ?? {}).includes('Polled'))).toBe(true);
    expect((await watch()).lastPingAt).toEqual(pingedBefore);
    await services.upstream.setWebhookNotifications(baseId, w.webhookId, true);
  });
});
