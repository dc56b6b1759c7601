import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamWebhook } from '../../src/upstream/webhook-types.js';
import { startSandbox, type ErrorBody, type RecordBody, type SandboxHarness } from './sandbox-harness.js';
import { addHooksBase, createHook, hooksPath, payloadsOf } from './webhook-harness.js';

describe('sandbox controls that make a webhook miss changes', () => {
  let harness: SandboxHarness;

  beforeAll(async () => {
    harness = await startSandbox({ demo: false });
  });

  afterAll(async () => {
    harness.sandbox.close();
    await harness.close();
  });

  async function hookWithChanges(name: string, changes: number) {
    const hooks = addHooksBase(harness, name);
    const { id } = await createHook(harness, hooks.baseId, { specification: { options: { filters: { dataTypes: ['tableData'] } } } });
    const ids: string[] = [];
    for (let index = 0; index < changes; index++) {
      ids.push((await harness.call<RecordBody>('POST', hooks.path(hooks.products), { body: { fields: { Name: `r${index}` } } })).body.id);
    }
    return { ...hooks, webhookId: id, ids };
  }

  const listed = async (baseId: string, webhookId: string) =>
    (await harness.call<{ webhooks: UpstreamWebhook[] }>('GET', hooksPath(baseId))).body.webhooks.find((hook) => hook.id === webhookId);

  it('drops payloads as the retention does: the numbering goes on, so a reader sees its cursor jump', async () => {
    const hooks = await hookWithChanges('Dropped', 3);

    const dropped = await harness.call('POST', `/_control/webhooks/${hooks.webhookId}/drop-payloads`, { body: { throughCursor: 2 } });
    expect(dropped).toEqual({ status: 200, body: { dropped: 2, cursorForNextPayload: 4 } });

    // The first payload returned is number cursor - payloads.length = 3, past the reader's cursor 1: two were missed.
    const page = await payloadsOf(harness, hooks.baseId, hooks.webhookId, '?cursor=1');
    expect(page.cursor).toBe(4);
    expect(page.payloads).toHaveLength(1);
    expect(Object.keys(page.payloads[0].changedTablesById?.[hooks.products.id].createdRecordsById ?? {})).toEqual([hooks.ids[2]]);

    await harness.call('POST', `/_control/webhooks/${hooks.webhookId}/drop-payloads`);
    const empty = await payloadsOf(harness, hooks.baseId, hooks.webhookId, '?cursor=1');
    expect(empty).toEqual({ cursor: 1, mightHaveMore: false, payloads: [] });
    expect((await listed(hooks.baseId, hooks.webhookId))?.cursorForNextPayload).toBe(4);
  });

  it('expires a webhook now: disabled, no new payloads, refresh refused, past payloads still readable', async () => {
    const hooks = await hookWithChanges('Expired', 1);

    const expired = await harness.call<{ id: string; expirationTime: string }>('POST', `/_control/webhooks/${hooks.webhookId}/expire`);
    expect(expired.status).toBe(200);
    expect(expired.body.id).toBe(hooks.webhookId);
    await harness.call('POST', hooks.path(hooks.products), { body: { fields: { Name: 'after expiry' } } });

    expect(await listed(hooks.baseId, hooks.webhookId)).toMatchObject({
      isHookEnabled: false,
      cursorForNextPayload: 2,
      expirationTime: expired.body.expirationTime,
    });
    expect((await harness.call('POST', `${hooksPath(hooks.baseId, hooks.webhookId)}/refresh`)).status).toBe(422);
    expect((await payloadsOf(harness, hooks.baseId, hooks.webhookId)).payloads).toHaveLength(1);
  });

  it('answers 404 for an unknown webhook, 400 for a bad body and 403 without the admin token', async () => {
    const hooks = await hookWithChanges('Refused', 0);
    const unknown = await harness.call<ErrorBody>('POST', '/_control/webhooks/achAAAAAAAAAAAAAA/expire');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.type).toBe('NOT_FOUND');
    const bad = await harness.call('POST', `/_control/webhooks/${hooks.webhookId}/drop-payloads`, { body: { throughCursor: 0 } });
    expect(bad.status).toBe(400);
    const user = await harness.call<{ token: string }>('POST', '/_control/users', { body: { email: 'gaps@example.com' } });
    const asUser = await harness.call('POST', `/_control/webhooks/${hooks.webhookId}/expire`, { token: user.body.token });
    expect(asUser.status).toBe(403);
    expect((await listed(hooks.baseId, hooks.webhookId))?.isHookEnabled).toBe(true);
  });
});
