import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { usageBaseInput } from '../../src/services/usage-base.input.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed, refusal } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';

/** The tracked bases' rules (UsageBaseService create, list, update, remove), without HTTP. */

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices();
});
afterAll(() => t?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const create = (accountId: string, body: Record<string, unknown>) =>
  t.services.usageBases.create(accountId, parsed(usageBaseInput.create, body));
const update = (accountId: string, id: string, body: Record<string, unknown>) =>
  t.services.usageBases.update(accountId, id, parsed(usageBaseInput.update, body));
const track = (accountId: string, name: string, extra: Record<string, unknown> = {}) =>
  create(accountId, { baseId: t.baseId(name), ...extra });
/** A base as REST and GraphQL show it (without the service's own columns). */
const shown = ({ id, baseId, baseName, scheduledHour, timezone, createdAt, updatedAt }: Awaited<ReturnType<typeof create>>) => ({
  id,
  baseId,
  baseName,
  scheduledHour,
  timezone,
  createdAt: createdAt.toISOString(),
  updatedAt: updatedAt.toISOString(),
});

/** The problems an input schema refuses a body with, written as the transports write them. */
function problems(schema: typeof usageBaseInput.create | typeof usageBaseInput.update, body: Record<string, unknown>): string {
  const result = schema.safeParse(body);
  return result.success ? '' : result.error.issues.map((issue) => `${['body', ...issue.path].join('.')}: ${issue.message}`).join('; ');
}

/** The AppError a call is refused with. */
async function failure(call: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

describe('UsageBaseService.create', () => {
  it('tracks a base with the upstream name and the defaults', async () => {
    const { accountId } = await t.newAccount();
    const baseId = t.baseId(DEMO_BASES.catalog);
    const base = await create(accountId, { baseId });
    expect(shown(base)).toEqual({
      id: expect.stringMatching(UUID),
      baseId,
      baseName: DEMO_BASES.catalog,
      scheduledHour: 0,
      timezone: 'UTC',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('takes a display name, hour and zone, the zone in its canonical spelling', async () => {
    const { accountId } = await t.newAccount();
    const base = await track(accountId, DEMO_BASES.marketing, { baseName: 'Ads', scheduledHour: 23, timezone: 'america/new_york' });
    expect(base).toMatchObject({ baseName: 'Ads', scheduledHour: 23, timezone: 'America/New_York' });
  });

  it('refuses a base the account tracks already with conflict, while another account may track it too', async () => {
    const { accountId } = await t.newAccount();
    const base = await track(accountId, DEMO_BASES.catalog);
    expect(await refusal(() => create(accountId, { baseId: base.baseId }))).toBe('conflict');
    const other = await t.newAccount();
    expect(await refusal(() => create(other.accountId, { baseId: base.baseId }))).toBe('accepted');
  });

  it.each([
    [{}, /baseId/],
    [{ baseId: 'appNoSuchBase00000' }, /baseId/],
    [{ baseId: 'appNoSuchBase0000', scheduledHour: 24 }, /scheduledHour/],
    [{ baseId: 'appNoSuchBase0000', scheduledHour: 1.5 }, /scheduledHour/],
    [{ baseId: 'appNoSuchBase0000', timezone: 'Mars/Base' }, /timezone/],
    [{ baseId: 'appNoSuchBase0000', baseName: '' }, /baseName/],
    [{ baseId: 'appNoSuchBase0000', colour: 'red' }, /colour/],
  ])('refuses %j as invalid_request, naming the field', async (body, message) => {
    expect(await refusal(() => create(t.accountId, body))).toBe('invalid_request');
    expect(problems(usageBaseInput.create, body)).toMatch(message);
  });

  it('is not_found for a base the connection does not see (no such base, or another user’s): no existence leak', async () => {
    expect(await failure(() => create(t.accountId, { baseId: 'appNoSuchBase0000' }))).toEqual({
      code: 'not_found',
      message: "Upstream base appNoSuchBase0000 not found for this account's connection",
    });
  });
});

describe('UsageBaseService.list', () => {
  it('lists only the caller’s bases, oldest first', async () => {
    const mine = await t.newAccount();
    const theirs = await t.newAccount();
    const a = await track(mine.accountId, DEMO_BASES.catalog);
    const b = await track(mine.accountId, DEMO_BASES.marketing);
    await track(theirs.accountId, DEMO_BASES.changeLog);
    expect((await t.services.usageBases.list(mine.accountId)).map(shown)).toEqual([shown(a), shown(b)]);
  });
});

describe('UsageBaseService.update', () => {
  it('changes any of the three fields and bumps updatedAt', async () => {
    const { accountId } = await t.newAccount();
    const base = shown(await track(accountId, DEMO_BASES.marketing));
    const changed = shown(await update(accountId, base.id, { baseName: 'Renamed', scheduledHour: 3, timezone: 'Europe/Berlin' }));
    expect(changed).toMatchObject({ id: base.id, baseName: 'Renamed', scheduledHour: 3, timezone: 'Europe/Berlin' });
    expect(changed.updatedAt >= base.updatedAt).toBe(true);
    expect(changed.createdAt).toBe(base.createdAt);
    expect((await t.services.usageBases.list(accountId)).map(shown).find((b) => b.id === base.id)).toEqual(changed);
  });

  it('takes an empty object and changes nothing', async () => {
    const { accountId } = await t.newAccount();
    const base = shown(await track(accountId, DEMO_BASES.changeLog));
    expect(shown(await update(accountId, base.id, {}))).toEqual(base);
    expect((await t.services.usageBases.list(accountId)).map(shown)).toEqual([base]);
  });

  it.each([
    [{ scheduledHour: -1 }],
    [{ scheduledHour: '3' }],
    [{ timezone: 'CET+1' }],
    [{ baseName: 'x'.repeat(256) }],
    [{ baseName: '   ' }],
    [{ id: 'other' }],
  ])('refuses %j as invalid_request', async (body) => {
    const base = (await t.services.usageBases.list(t.accountId))[0] ?? (await track(t.accountId, DEMO_BASES.catalog));
    expect(await refusal(() => update(t.accountId, base.id, body))).toBe('invalid_request');
  });

  it('is not_found for an unknown id and for another account’s base, which stays as it was', async () => {
    const base = await track(t.other.accountId, DEMO_BASES.catalog);
    for (const id of ['00000000-0000-4000-8000-000000000000', base.id]) {
      expect(await failure(() => update(t.accountId, id, { baseName: 'mine now' }))).toEqual({
        code: 'not_found',
        message: 'Usage base not found',
      });
    }
    const untouched = (await t.services.usageBases.list(t.other.accountId)).find((b) => b.id === base.id);
    expect(untouched!.baseName).toBe(DEMO_BASES.catalog);
  });
});

describe('UsageBaseService.remove', () => {
  it('stops tracking and deletes the snapshots; a second remove is not_found', async () => {
    const { accountId } = await t.newAccount();
    const base = await track(accountId, DEMO_BASES.marketing);
    await t.services.usageCounts.count(accountId, base.id);
    const counted = await t.dataSource.query('SELECT COUNT(*) AS n FROM usage_snapshot WHERE usage_base_id = ?', [base.id]);
    expect(Number(counted[0].n)).toBe(1);
    await t.services.usageBases.remove(accountId, base.id);
    expect(await t.services.usageBases.list(accountId)).toEqual([]);
    expect(await refusal(() => t.services.snapshots.list(accountId, base.id, { limit: 30 }))).toBe('not_found');
    const left = await t.dataSource.query('SELECT COUNT(*) AS n FROM usage_snapshot WHERE usage_base_id = ?', [base.id]);
    expect(Number(left[0].n)).toBe(0);
    expect(await refusal(() => t.services.usageBases.remove(accountId, base.id))).toBe('not_found');
  });

  it('is not_found for another account’s base and leaves it tracked', async () => {
    const base = await track(t.other.accountId, DEMO_BASES.marketing);
    expect(await refusal(() => t.services.usageBases.remove(t.accountId, base.id))).toBe('not_found');
    expect((await t.services.usageBases.list(t.other.accountId)).map((b) => b.id)).toContain(base.id);
  });
});
