import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingInput } from '../../src/services/usage-insight/counting.input.js';
import { monitoringConfigInput } from '../../src/services/monitoring-config.input.js';
import { snapshotInput } from '../../src/services/snapshot.input.js';
import { usageBaseInput } from '../../src/services/usage-base.input.js';
import { usageLimitsInput } from '../../src/services/usage-limits/usage-limits.input.js';
import { changeQueryInput } from '../../src/services/audit/change-query.input.js';
import { deliveryLogInput } from '../../src/services/webhooks/delivery-log.input.js';
import { webhookInput } from '../../src/services/webhooks/webhook.input.js';
import { parsed, refusal } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';

/**
 * A base the account's connection no longer sees (CONTRACT §8), on the services the routes call, without HTTP. What
 * REST and GraphQL answer for it (404s, the lists' lost marks, deletion): test/integration/lost-upstream-access.test.ts.
 */

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:65000' });
});
afterAll(() => t?.close());

/** A sandbox user with two bases of its own (one to watch, one for the Changes table). */
function upstreamUser(name: string) {
  const { user, token } = t.sandbox.auth.createUser(`${name}@example.com`);
  const base = t.sandbox.auth.createUserBase(user.id, `${name}'s base`).base;
  const log = t.sandbox.auth.createUserBase(user.id, `${name}'s log`).base;
  return { id: user.id, token, base, log };
}

/** An account connected as `user`, tracking, monitoring and forwarding the user's base. */
async function watchingAccount(name: string, user: ReturnType<typeof upstreamUser>) {
  const { services } = t;
  const { accountId } = await t.newAccount(name);
  await services.connections.setToken(accountId, user.token);
  const tracked = await services.usageBases.create(accountId, parsed(usageBaseInput.create, { baseId: user.base.id }));
  await services.usageCounts.count(accountId, tracked.id);
  const config = await services.monitoringConfigs.create(
    accountId,
    parsed(monitoringConfigInput.create, { baseId: user.base.id, monitoringBaseId: user.log.id }),
  );
  const { webhook } = await services.webhooks.create(
    accountId,
    parsed(webhookInput.create, { baseId: user.base.id, event: 'table_create', webhookUrl: 'http://127.0.0.1:65000/hook' }),
  );
  return { accountId, usageBaseId: tracked.id, configId: config.id, webhookId: webhook.id };
}

const requestsTo = (baseId: string) => t.sandbox.stats.byBase.get(baseId)?.requests ?? 0;

describe('a base the account’s connection no longer sees (CONTRACT §8)', () => {
  it('is not_found for every operation but removal, and marked lost where it is listed', async () => {
    const { services } = t;
    const ada = upstreamUser('lost-ada');
    const bob = upstreamUser('lost-bob');
    const { accountId, usageBaseId, configId, webhookId } = await watchingAccount('reconnected', ada);
    expect(await services.usageBases.lostAmong(accountId, await services.usageBases.list(accountId))).toEqual(new Set());

    // The account reconnects as another upstream user, who does not see Ada's base.
    await services.connections.setToken(accountId, bob.token);

    // What each route calls (src/rest/usage.routes.ts, monitoring.routes.ts, changes.routes.ts, webhooks.routes.ts).
    const operations: Array<[string, () => Promise<unknown>]> = [
      [
        'snapshots',
        async () => services.snapshots.listOf(await services.usageBases.get(accountId, usageBaseId), parsed(snapshotInput.list, {})),
      ],
      ['latest snapshot', () => services.usageBases.get(accountId, usageBaseId)],
      ['limits', () => services.usageLimits.get(accountId, usageBaseId)],
      ['update limits', () => services.usageLimits.update(accountId, usageBaseId, parsed(usageLimitsInput.update, { plan: 'team' }))],
      ['forecast', () => services.usageForecasts.get(accountId, usageBaseId)],
      ['counting', () => services.usageCounting.get(accountId, usageBaseId)],
      [
        'update counting',
        () => services.usageCounting.update(accountId, usageBaseId, parsed(countingInput.update, { countOnlyWhenChanged: true })),
      ],
      ['schedule', () => services.usageSchedule.schedule(accountId, usageBaseId)],
      [
        'update usage base',
        () => services.usageBases.update(accountId, usageBaseId, parsed(usageBaseInput.update, { baseName: 'Renamed' })),
      ],
      ['run', () => services.usageCounts.count(accountId, usageBaseId)],
      ['config', () => services.monitoringConfigs.get(accountId, configId)],
      [
        'config changes',
        async () =>
          services.changeQueries.list(await services.monitoringConfigs.logTarget(accountId, configId), parsed(changeQueryInput.list, {})),
      ],
      [
        'update config',
        () => services.monitoringConfigs.update(accountId, configId, parsed(monitoringConfigInput.update, { scope: 'schema_only' })),
      ],
      ['deliveries', () => services.webhookDeliveries.list(accountId, webhookId, parsed(deliveryLogInput.list, {}))],
      ['rotate secret', () => services.webhooks.rotateSecret(accountId, webhookId)],
    ];
    const baseRequests = requestsTo(ada.base.id);
    for (const [name, call] of operations) expect({ name, code: await refusal(call) }).toEqual({ name, code: 'not_found' });
    // Known from the connection's list of bases: nothing was asked of the base itself.
    expect(requestsTo(ada.base.id)).toBe(baseRequests);

    const bases = await services.usageBases.list(accountId);
    expect(bases.map((b) => [b.id, b.baseId])).toEqual([[usageBaseId, ada.base.id]]);
    expect(await services.usageBases.lostAmong(accountId, bases)).toEqual(new Set([usageBaseId]));
    const configs = await services.monitoringConfigs.list(accountId);
    expect(configs.map((c) => c.id)).toEqual([configId]);
    expect(await services.monitoringConfigs.lostAmong(accountId, configs)).toEqual(new Set([configId]));
    // The webhook list still has it (REST keeps the seed's fields; GraphQL marks it).
    expect((await services.webhooks.list(accountId)).map((w) => w.id)).toEqual([webhookId]);

    // Its own rows can still be removed.
    await services.webhooks.remove(accountId, webhookId);
    await services.monitoringConfigs.remove(accountId, configId);
    await services.usageBases.remove(accountId, usageBaseId);
    expect(await services.usageBases.list(accountId)).toEqual([]);
    expect(await services.monitoringConfigs.list(accountId)).toEqual([]);
    expect(await services.webhooks.list(accountId)).toEqual([]);
  });

  it('turns the upstream’s 403 during a count into not_found when the connection’s list confirms it, and marks the base lost', async () => {
    const { services } = t;
    const ada = upstreamUser('narrowed-ada');
    const { accountId } = await t.newAccount('narrowed');
    await services.connections.setToken(accountId, ada.token);
    const tracked = await services.usageBases.create(accountId, parsed(usageBaseInput.create, { baseId: ada.base.id }));
    // The same upstream user, now through a token for the other base only: the list kept for the connection (a
    // minute) still names the tracked base, so the count is tried and the upstream refuses it.
    const narrow = t.sandbox.auth.createPersonalToken(ada.id, { scopes: 'all', baseIds: [ada.log.id] });
    await services.connections.setToken(accountId, narrow.token);
    expect(await services.usageBases.lostAmong(accountId, await services.usageBases.list(accountId))).toEqual(new Set());

    const run = await services.usageCounts.count(accountId, tracked.id).catch((error: unknown) => error);
    expect(run).toMatchObject({ code: 'not_found', message: expect.any(String) });
    expect(await services.usageBases.lostAmong(accountId, await services.usageBases.list(accountId))).toEqual(new Set([tracked.id]));
    expect(await refusal(() => services.usageBases.get(accountId, tracked.id))).toBe('not_found');
  });

  it('stops reading the watch of a base no one watching it sees, skips its daily count, and resumes once it is seen again', async () => {
    const ada = upstreamUser('watch-ada');
    const bob = upstreamUser('watch-bob');
    const account = await watchingAccount('watch-owner', ada);
    const { watches, changeIngest, usageSchedule, connections } = t.services;
    const watch = (await watches.find({ baseId: ada.base.id }))!;
    expect(watch.status).toBe('active');

    await connections.setToken(account.accountId, bob.token);
    // The first read is refused; no one else watches the base: marked lost, not failed (no retry in 30 s).
    await expect(changeIngest.ingest(watch.id)).resolves.toMatchObject({ payloads: 0 });
    expect((await watches.findById(watch.id))!.status).toBe('lost');
    const before = requestsTo(ada.base.id);
    await changeIngest.ingest(watch.id);
    // The daily count is skipped too, and says why; neither asked the base for anything.
    const scheduled = await usageSchedule.runScheduled(account.usageBaseId);
    expect(scheduled.outcome).toBe('base-not-visible');
    expect(scheduled.nextRunAt).toBeInstanceOf(Date);
    expect(requestsTo(ada.base.id)).toBe(before);

    // Connected as Ada again: the upkeep watches the base anew (a new upstream webhook; the gap is logged).
    await connections.setToken(account.accountId, ada.token);
    await watches.maintain();
    const revived = (await watches.findById(watch.id))!;
    expect(revived.status).toBe('active');
    expect(revived.webhookId).not.toBe(watch.webhookId);
    expect(revived.continuousSince).not.toBeNull();
    await expect(changeIngest.ingest(watch.id)).resolves.toBeDefined();
  });
});
