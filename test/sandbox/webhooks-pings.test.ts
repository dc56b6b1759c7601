import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import type { UpstreamWebhook, WebhookPing } from '../../src/upstream/webhook-types.js';
import { eventually } from '../support/eventually.js';
import { startSandbox, type SandboxHarness } from './sandbox-harness.js';
import { addHooksBase, createHook, hooksPath, manualClock, startPingReceiver, type PingReceiver } from './webhook-harness.js';

const fast = { pingDelayMs: 20, retryBaseDelayMs: 30, maxRetries: 3, pingTimeoutMs: 2_000 };

describe('sandbox webhook notification pings', () => {
  const cleanups: Array<() => Promise<void> | void> = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp(receiver: PingReceiver, options: Partial<SandboxOptions> = {}) {
    cleanups.push(() => receiver.close());
    const harness: SandboxHarness = await startSandbox({ demo: false, webhooks: fast, ...options });
    cleanups.push(
      () => harness.close(),
      () => harness.sandbox.close(),
    );
    const hooks = addHooksBase(harness);
    const created = await createHook(harness, hooks.baseId, {
      notificationUrl: receiver.url,
      specification: { options: { filters: { dataTypes: ['tableData'] } } },
    });
    const state = async () => {
      const { body } = await harness.call<{ webhooks: UpstreamWebhook[] }>('GET', hooksPath(hooks.baseId));
      return body.webhooks.find((hook) => hook.id === created.id)!;
    };
    const write = (name: string) => harness.call('POST', hooks.path(hooks.products), { body: { fields: { Name: name } } });
    return { harness, hooks, created, state, write };
  }

  it('pings after creation with a body signed by X-Airtable-Content-MAC', async () => {
    const receiver = await startPingReceiver();
    const { hooks, created, state } = await setUp(receiver);

    const [ping] = await receiver.waitFor(1);
    const expectedMac = createHmac('sha256', Buffer.from(created.macSecretBase64, 'base64')).update(ping.rawBody).digest('hex');
    expect(ping.headers['x-airtable-content-mac']).toBe(`hmac-sha256=${expectedMac}`);
    expect(ping.headers['content-type']).toBe('application/json');
    const body = JSON.parse(ping.rawBody.toString('utf8')) as WebhookPing;
    expect(body).toEqual({ base: { id: hooks.baseId }, webhook: { id: created.id }, timestamp: expect.any(String) });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);

    const result = await eventually(state, (hook) => hook.lastNotificationResult !== null);
    expect(result.lastNotificationResult).toEqual({
      success: true,
      completionTimestamp: expect.any(String),
      durationMs: expect.any(Number),
      retryNumber: 0,
    });
    expect(result.lastSuccessfulNotificationTime).toBe(result.lastNotificationResult?.completionTimestamp);
  });

  it('sends one ping for changes made together and another for a later change', async () => {
    const receiver = await startPingReceiver();
    const clock = manualClock();
    const { harness, hooks, write } = await setUp(receiver, { now: clock.now });
    await receiver.waitFor(1);
    const batchTime = clock.now();

    // Three changes in one tick: their pings are all due together, so without coalescing three would go out at once.
    for (const name of ['a', 'b', 'c']) harness.sandbox.store.createRecords(hooks.baseId, hooks.products.id, [{ Name: name }]);
    await receiver.waitFor(2);
    clock.advance(60_000);
    await write('later');
    const pings = await receiver.waitFor(3);

    const timestamps = pings.map((ping) => (JSON.parse(ping.rawBody.toString('utf8')) as WebhookPing).timestamp);
    expect(timestamps.slice(1)).toEqual([new Date(batchTime).toISOString(), new Date(batchTime + 60_000).toISOString()]);
  });

  it('retries a failed ping with exponential backoff and records each result', async () => {
    const receiver = await startPingReceiver((index) => (index < 2 ? 503 : 204));
    const { created, state } = await setUp(receiver);
    const pings = await receiver.waitFor(3);

    const retried = await eventually(state, (hook) => hook.lastNotificationResult?.success === true);
    expect(retried.lastNotificationResult).toMatchObject({ success: true, retryNumber: 2 });
    for (const ping of pings) {
      const mac = createHmac('sha256', Buffer.from(created.macSecretBase64, 'base64')).update(ping.rawBody).digest('hex');
      expect(ping.headers['x-airtable-content-mac']).toBe(`hmac-sha256=${mac}`);
    }
  });

  it('waits at least the backoff between attempts, doubling each time', async () => {
    const received: number[] = [];
    const receiver = await startPingReceiver(() => {
      received.push(performance.now());
      return 500;
    });
    await setUp(receiver, { webhooks: { ...fast, retryBaseDelayMs: 40, maxRetries: 2 } });
    await receiver.waitFor(3);
    const gaps = [received[1] - received[0], received[2] - received[1]];
    // Timers never fire early, so these lower bounds hold however slow the machine is.
    expect(gaps[0]).toBeGreaterThanOrEqual(40 - 2);
    expect(gaps[1]).toBeGreaterThanOrEqual(80 - 2);
  });

  it('turns notifications off after the last retry fails, and on again with enableNotifications', async () => {
    let failing = true;
    const receiver = await startPingReceiver(() => (failing ? 500 : 200));
    const { harness, hooks, created, state, write } = await setUp(receiver);

    await receiver.waitFor(1 + fast.maxRetries);
    const disabled = await eventually(state, (hook) => !hook.areNotificationsEnabled);
    expect(disabled.areNotificationsEnabled).toBe(false);
    expect(disabled.lastNotificationResult).toEqual({
      success: false,
      completionTimestamp: expect.any(String),
      durationMs: expect.any(Number),
      retryNumber: fast.maxRetries,
      error: { message: 'The HTTP request returned a 500 status code instead of 200 or 204' },
      willBeRetried: false,
    });
    expect(disabled.lastSuccessfulNotificationTime).toBeNull();

    failing = false;
    await harness.call('POST', `${hooksPath(hooks.baseId, created.id)}/enableNotifications`, { body: { enable: true } });
    await write('after re-enabling');
    await receiver.waitFor(2 + fast.maxRetries);
    const enabled = await eventually(state, (hook) => hook.lastNotificationResult?.success === true);
    expect(enabled.lastNotificationResult?.success).toBe(true);
    expect(enabled.areNotificationsEnabled).toBe(true);
  });

  it('fails a ping that is not answered in time, without holding up the API request that caused it', async () => {
    const receiver = await startPingReceiver();
    const hanging = await startHangingReceiver();
    cleanups.push(() => hanging.close());
    const { harness, hooks, state } = await setUp(receiver, { webhooks: { ...fast, pingTimeoutMs: 100, maxRetries: 0 } });
    const hook = await createHook(harness, hooks.baseId, {
      notificationUrl: hanging.url,
      specification: { options: { filters: { dataTypes: ['tableData'] } } },
    });
    await hanging.arrived;

    const write = await harness.call('POST', hooks.path(hooks.products), { body: { fields: { Name: 'while hanging' } } });
    expect(write.status).toBe(200);
    const hookState = async () => {
      const { body } = await harness.call<{ webhooks: UpstreamWebhook[] }>('GET', hooksPath(hooks.baseId));
      return body.webhooks.find((candidate) => candidate.id === hook.id);
    };
    const failed = await eventually(hookState, (found) => found?.lastNotificationResult?.success === false);
    expect(failed?.lastNotificationResult?.error?.message).toBe('The HTTP request did not complete within 100 ms');
    expect((await state()).isHookEnabled).toBe(true);
  });

  it('sends nothing after close()', async () => {
    const receiver = await startPingReceiver();
    const { harness, write } = await setUp(receiver, { webhooks: { ...fast, pingDelayMs: 50 } });
    await receiver.waitFor(1);
    harness.sandbox.close();
    await write('after close');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(receiver.pings).toHaveLength(1);
  });
});

/** Accepts pings and never answers them. */
async function startHangingReceiver() {
  let arrived!: () => void;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const server = createServer(() => arrived());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hang`,
    arrived: arrival,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
