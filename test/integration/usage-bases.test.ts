import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /usage/bases', () => {
  it('tracks a base with the upstream name and the defaults, in exactly the seed shape', async () => {
    const { http } = await app.newAccount();
    const baseId = await upstreamBaseId(http, DEMO_BASES.catalog);
    const res = await http('POST', '/usage/bases', { body: { baseId } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['base']);
    expect(res.body.base).toEqual({
      id: expect.stringMatching(UUID),
      baseId,
      baseName: DEMO_BASES.catalog,
      scheduledHour: 0,
      timezone: 'UTC',
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
  });

  it('takes a display name, hour and zone', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.marketing, { baseName: 'Ads', scheduledHour: 23, timezone: 'america/new_york' });
    expect(base).toMatchObject({ baseName: 'Ads', scheduledHour: 23, timezone: 'America/New_York' });
  });

  it('answers 409 for a base the account tracks already, while another account may track it too', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.catalog);
    const again = await http('POST', '/usage/bases', { body: { baseId: base.baseId } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
    const { http: otherHttp } = await app.newAccount();
    expect((await otherHttp('POST', '/usage/bases', { body: { baseId: base.baseId } })).status).toBe(201);
  });

  it.each([
    [{}, /baseId/],
    [{ baseId: 'appNoSuchBase00000' }, /baseId/],
    [{ baseId: 'appNoSuchBase0000', scheduledHour: 24 }, /scheduledHour/],
    [{ baseId: 'appNoSuchBase0000', scheduledHour: 1.5 }, /scheduledHour/],
    [{ baseId: 'appNoSuchBase0000', timezone: 'Mars/Base' }, /timezone/],
    [{ baseId: 'appNoSuchBase0000', baseName: '' }, /baseName/],
    [{ baseId: 'appNoSuchBase0000', colour: 'red' }, /colour/],
  ])('answers 400 for %j', async (body, message) => {
    const res = await app.http('POST', '/usage/bases', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: expect.stringMatching(message), code: 'invalid_request' });
  });

  it('answers 404 for a base the connection does not see (no such base, or another user’s): no existence leak', async () => {
    const res = await app.http('POST', '/usage/bases', { body: { baseId: 'appNoSuchBase0000' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'not_found', message: "Upstream base appNoSuchBase0000 not found for this account's connection" });
  });
});

describe('GET /usage/bases', () => {
  it('lists only the caller’s bases, oldest first', async () => {
    const mine = await app.newAccount();
    const theirs = await app.newAccount();
    const a = await trackBase(mine.http, DEMO_BASES.catalog);
    const b = await trackBase(mine.http, DEMO_BASES.marketing);
    await trackBase(theirs.http, DEMO_BASES.changeLog);
    const res = await mine.http('GET', '/usage/bases');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ bases: [a, b] });
  });
});

describe('PATCH /usage/bases/{id}', () => {
  it('changes any of the three fields and bumps updatedAt', async () => {
    const base = await trackBase(app.http, DEMO_BASES.marketing);
    const res = await app.http('PATCH', `/usage/bases/${base.id}`, {
      body: { baseName: 'Renamed', scheduledHour: 3, timezone: 'Europe/Berlin' },
    });
    expect(res.status).toBe(200);
    expect(res.body.base).toMatchObject({ id: base.id, baseName: 'Renamed', scheduledHour: 3, timezone: 'Europe/Berlin' });
    expect(res.body.base.updatedAt >= (base as unknown as { updatedAt: string }).updatedAt).toBe(true);
    expect(res.body.base.createdAt).toBe((base as unknown as { createdAt: string }).createdAt);
    const listed = await app.http('GET', '/usage/bases');
    expect(listed.body.bases.find((b: { id: string }) => b.id === base.id)).toEqual(res.body.base);
  });

  it('accepts an empty object, or no body, and changes nothing', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.changeLog);
    for (const options of [{ body: {} }, {}]) {
      const res = await http('PATCH', `/usage/bases/${base.id}`, options);
      expect(res.status).toBe(200);
      expect(res.body.base).toEqual(base);
    }
  });

  it.each([
    [{ scheduledHour: -1 }],
    [{ scheduledHour: '3' }],
    [{ timezone: 'CET+1' }],
    [{ baseName: 'x'.repeat(256) }],
    [{ baseName: '   ' }],
    [{ id: 'other' }],
  ])('answers 400 for %j', async (body) => {
    const base = (await app.http('GET', '/usage/bases')).body.bases[0] ?? (await trackBase(app.http, DEMO_BASES.catalog));
    const res = await app.http('PATCH', `/usage/bases/${base.id}`, { body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
  });

  it('answers 404 for an unknown id and for another account’s base', async () => {
    const base = await trackBase(app.other.http, DEMO_BASES.catalog);
    for (const id of ['00000000-0000-4000-8000-000000000000', base.id]) {
      const res = await app.http('PATCH', `/usage/bases/${id}`, { body: { baseName: 'mine now' } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Usage base not found', code: 'not_found' });
    }
    const untouched = await app.other.http('GET', '/usage/bases');
    expect(untouched.body.bases.find((b: { id: string }) => b.id === base.id).baseName).toBe(DEMO_BASES.catalog);
  });
});

describe('DELETE /usage/bases/{id}', () => {
  it('stops tracking and deletes the snapshots; a second delete is 404', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.marketing);
    expect((await http('POST', `/usage/bases/${base.id}/run`)).status).toBe(200);
    const res = await http('DELETE', `/usage/bases/${base.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await http('GET', '/usage/bases')).body.bases).toEqual([]);
    expect((await http('GET', `/usage/bases/${base.id}/snapshots`)).status).toBe(404);
    const left = await app.running.dataSource.query('SELECT COUNT(*) AS n FROM usage_snapshot WHERE usage_base_id = ?', [base.id]);
    expect(Number(left[0].n)).toBe(0);
    expect((await http('DELETE', `/usage/bases/${base.id}`)).status).toBe(404);
  });

  it('answers 404 for another account’s base and leaves it tracked', async () => {
    const base = await trackBase(app.other.http, DEMO_BASES.marketing);
    expect((await app.http('DELETE', `/usage/bases/${base.id}`)).status).toBe(404);
    expect((await app.other.http('GET', '/usage/bases')).body.bases.map((b: { id: string }) => b.id)).toContain(base.id);
  });
});
