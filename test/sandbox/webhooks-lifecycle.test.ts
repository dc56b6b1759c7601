import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_LIFETIME_MS, WEBHOOK_RETENTION_MS } from '../../src/sandbox/index.js';
import type { UpstreamWebhook } from '../../src/upstream/webhook-types.js';
import { startSandbox, type ErrorBody, type SandboxHarness } from './sandbox-harness.js';
import { addHooksBase, createHook, hooksPath, manualClock, payloadsOf, type HooksBase } from './webhook-harness.js';

const HOUR_MS = 60 * 60 * 1000;

describe('sandbox webhook lifecycle', () => {
  let harness: SandboxHarness;
  const clock = manualClock();

  beforeAll(async () => {
    harness = await startSandbox({ demo: false, now: clock.now });
  });

  afterAll(async () => {
    harness.sandbox.close();
    await harness.close();
  });

  async function setUp(filters: Record<string, unknown> = {}) {
    const hooks = addHooksBase(harness);
    const created = await createHook(harness, hooks.baseId, {
      specification: { options: { filters: { dataTypes: ['tableData', 'tableFields'], ...filters } } },
    });
    return { ...hooks, webhookId: created.id, created };
  }

  async function createProducts(hooks: HooksBase, count: number) {
    for (let i = 0; i < count; i++) await harness.call('POST', hooks.path(hooks.products), { body: { fields: { Name: `p${i}` } } });
  }

  async function listed(baseId: string, webhookId: string): Promise<UpstreamWebhook | undefined> {
    const response = await harness.call<{ webhooks: UpstreamWebhook[] }>('GET', hooksPath(baseId));
    return response.body.webhooks.find((hook) => hook.id === webhookId);
  }

  it('lists every documented field and returns the MAC secret only on create', async () => {
    const { baseId, webhookId, created } = await setUp({ recordChangeScope: undefined });
    expect(Buffer.from(created.macSecretBase64, 'base64')).toHaveLength(32);
    expect(created.expirationTime).toBe(new Date(clock.now() + WEBHOOK_LIFETIME_MS).toISOString());
    expect(await listed(baseId, webhookId)).toEqual({
      id: webhookId,
      areNotificationsEnabled: false,
      cursorForNextPayload: 1,
      isHookEnabled: true,
      lastSuccessfulNotificationTime: null,
      notificationUrl: null,
      expirationTime: created.expirationTime,
      lastNotificationResult: null,
      specification: { options: { filters: { dataTypes: ['tableData', 'tableFields'] } } },
    });
  });

  it('pages payloads: limit ≤ 50, cursor = last payload + 1, mightHaveMore', async () => {
    const hooks = await setUp();
    const { baseId, webhookId } = hooks;
    await createProducts(hooks, 5);

    const empty = await payloadsOf(harness, baseId, webhookId, '?cursor=6');
    expect(empty).toEqual({ cursor: 6, mightHaveMore: false, payloads: [] });
    const first = await payloadsOf(harness, baseId, webhookId, '?limit=2');
    expect(first.payloads).toHaveLength(2);
    expect(first).toMatchObject({ cursor: 3, mightHaveMore: true });
    const second = await payloadsOf(harness, baseId, webhookId, `?cursor=${first.cursor}&limit=3`);
    expect(second).toMatchObject({ cursor: 6, mightHaveMore: false });
    const all = await payloadsOf(harness, baseId, webhookId);
    expect(all.payloads.map((payload) => payload.baseTransactionNumber)).toEqual(
      [...first.payloads, ...second.payloads].map((payload) => payload.baseTransactionNumber),
    );
    expect((await listed(baseId, webhookId))?.cursorForNextPayload).toBe(6);

    for (const query of ['?limit=51', '?limit=0', '?cursor=0', '?cursor=abc']) {
      const refused = await harness.call<ErrorBody>('GET', `${hooksPath(baseId, webhookId)}/payloads${query}`);
      expect(refused.status).toBe(422);
      expect(refused.body.error.type).toBe('INVALID_REQUEST_UNKNOWN');
    }
  });

  it('returns at most 50 payloads a page', async () => {
    const hooks = await setUp();
    const ids = Array.from({ length: 55 }, (_, i) => ({ fields: { Name: `n${i}` } }));
    for (let start = 0; start < ids.length; start += 10) {
      await harness.call('POST', hooks.path(hooks.products), { body: { records: ids.slice(start, start + 10) } });
    }
    await createProducts(hooks, 51);
    const page = await payloadsOf(harness, hooks.baseId, hooks.webhookId);
    expect(page.payloads).toHaveLength(50);
    expect(page).toMatchObject({ cursor: 51, mightHaveMore: true });
  });

  it('expires 7 days after the last refresh or listing, keeps it readable 7 more days, then forgets it', async () => {
    const hooks = await setUp();
    const { baseId, webhookId } = hooks;
    await createProducts(hooks, 1);

    clock.advance(WEBHOOK_LIFETIME_MS - HOUR_MS);
    const refreshed = await harness.call<{ expirationTime: string }>('POST', `${hooksPath(baseId, webhookId)}/refresh`);
    expect(refreshed.body.expirationTime).toBe(new Date(clock.now() + WEBHOOK_LIFETIME_MS).toISOString());
    clock.advance(WEBHOOK_LIFETIME_MS - HOUR_MS);
    await payloadsOf(harness, baseId, webhookId, '?cursor=2');
    expect((await listed(baseId, webhookId))?.expirationTime).toBe(new Date(clock.now() + WEBHOOK_LIFETIME_MS).toISOString());
    expect((await listed(baseId, webhookId))?.isHookEnabled).toBe(true);

    clock.advance(WEBHOOK_LIFETIME_MS);
    expect((await listed(baseId, webhookId))?.isHookEnabled).toBe(false);
    await createProducts(hooks, 1);
    expect((await listed(baseId, webhookId))?.cursorForNextPayload).toBe(2);
    const refusedRefresh = await harness.call<ErrorBody>('POST', `${hooksPath(baseId, webhookId)}/refresh`);
    expect(refusedRefresh.status).toBe(422);
    const afterExpiry = await listed(baseId, webhookId);
    await payloadsOf(harness, baseId, webhookId, '?cursor=2');
    expect((await listed(baseId, webhookId))?.expirationTime).toBe(afterExpiry?.expirationTime);

    clock.advance(WEBHOOK_RETENTION_MS);
    expect(await listed(baseId, webhookId)).toBeUndefined();
    expect((await harness.call('GET', `${hooksPath(baseId, webhookId)}/payloads`)).status).toBe(404);
  });

  it('drops payloads after 7 days without resetting the cursor', async () => {
    const hooks = await setUp();
    await createProducts(hooks, 2);
    clock.advance(WEBHOOK_RETENTION_MS - HOUR_MS);
    await createProducts(hooks, 1);
    clock.advance(2 * HOUR_MS);
    await harness.call('POST', `${hooksPath(hooks.baseId, hooks.webhookId)}/refresh`);

    const page = await payloadsOf(harness, hooks.baseId, hooks.webhookId);
    expect(page.payloads).toHaveLength(1);
    expect(page.cursor).toBe(4);
    expect(page.payloads[0].timestamp).toBe(new Date(clock.now() - 2 * HOUR_MS).toISOString());
  });

  it('emits an error payload and stays disabled when a watched field or the scoped table is deleted', async () => {
    const byField = await setUp();
    const notes = byField.field('Notes').id;
    const watching = await createHook(harness, byField.baseId, {
      specification: { options: { filters: { dataTypes: ['tableData'], watchDataInFieldIds: [notes] } } },
    });
    const meta = `/v0/meta/bases/${byField.baseId}/tables/${byField.products.id}`;
    await harness.call('DELETE', `${meta}/fields/${notes}`, { headers: { 'X-Sandbox-Source': 'client' } });
    await harness.call('POST', `${meta}/fields`, { body: { name: 'Notes', type: 'multilineText' } });
    await createProducts(byField, 1);

    const { payloads } = await payloadsOf(harness, byField.baseId, watching.id);
    expect(payloads).toEqual([
      expect.objectContaining({
        error: true,
        code: 'INVALID_FILTERS',
        payloadFormat: 'v0',
        actionMetadata: expect.objectContaining({ source: 'client' }),
      }),
    ]);
    expect(await listed(byField.baseId, watching.id)).toMatchObject({ isHookEnabled: false, cursorForNextPayload: 2 });
    expect(await listed(byField.baseId, byField.webhookId)).toMatchObject({ isHookEnabled: true });
    expect((await harness.call('POST', `${hooksPath(byField.baseId, watching.id)}/refresh`)).status).toBe(422);

    const byTable = await setUp({ recordChangeScope: undefined });
    const scoped = await createHook(harness, byTable.baseId, {
      specification: { options: { filters: { dataTypes: ['tableData'], recordChangeScope: byTable.suppliers.id } } },
    });
    await harness.call('DELETE', `/v0/meta/bases/${byTable.baseId}/tables/${byTable.suppliers.id}`);
    const scopedPayloads = (await payloadsOf(harness, byTable.baseId, scoped.id)).payloads;
    expect(scopedPayloads.map((payload) => [payload.destroyedTableIds, payload.error, payload.code])).toEqual([
      [[byTable.suppliers.id], undefined, undefined],
      [undefined, true, 'INVALID_FILTERS'],
    ]);
    expect(scopedPayloads[0].baseTransactionNumber).toBe(scopedPayloads[1].baseTransactionNumber);
  });

  it('enables and disables notifications, deletes with an empty body, 404s unknown webhooks', async () => {
    const { baseId, webhookId } = await setUp();
    const enable = (value: unknown) =>
      harness.call(`POST`, `${hooksPath(baseId, webhookId)}/enableNotifications`, { body: { enable: value } });

    expect(await enable(true)).toEqual({ status: 200, body: undefined });
    expect((await listed(baseId, webhookId))?.areNotificationsEnabled).toBe(true);
    await enable(false);
    expect((await listed(baseId, webhookId))?.areNotificationsEnabled).toBe(false);
    expect((await enable('yes')).status).toBe(422);

    expect(await harness.call('DELETE', hooksPath(baseId, webhookId))).toEqual({ status: 200, body: undefined });
    expect(await listed(baseId, webhookId)).toBeUndefined();
    const missing = await harness.call<ErrorBody>('DELETE', hooksPath(baseId, webhookId));
    expect(missing.status).toBe(404);
    expect(missing.body.error.type).toBe('NOT_FOUND');
    expect((await harness.call('PUT', hooksPath(baseId, webhookId))).body).toEqual({ error: 'NOT_FOUND' });
  });

  it('is rate limited like every other route of the base', async () => {
    const { baseId, webhookId } = await setUp();
    harness.sandbox.faults.update({ rateLimitPerSecond: 1 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await harness.call('GET', `${hooksPath(baseId, webhookId)}/payloads`)).status);
      expect(statuses).toContain(429);
    } finally {
      harness.sandbox.faults.reset();
    }
  });
});
