import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Tracked bases over HTTP: each route's status and shape, a 400, 404s. Their rules: test/services/usage-bases.service.test.ts. */

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

  it('answers a refused body with 400 invalid_request naming the field, and a tracked base with 409', async () => {
    const res = await app.http('POST', '/usage/bases', { body: { baseId: 'appNoSuchBase0000', scheduledHour: 24 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: expect.stringMatching(/^body\.scheduledHour: /), code: 'invalid_request' });
    const base = await trackBase(app.http, DEMO_BASES.changeLog);
    const again = await app.http('POST', '/usage/bases', { body: { baseId: base.baseId } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
  });

  it('answers 404 for a base the connection does not see', async () => {
    const res = await app.http('POST', '/usage/bases', { body: { baseId: 'appNoSuchBase0000' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'not_found', message: "Upstream base appNoSuchBase0000 not found for this account's connection" });
  });
});

describe('GET /usage/bases', () => {
  it('lists the caller’s bases as they were answered when tracked', async () => {
    const mine = await app.newAccount();
    const a = await trackBase(mine.http, DEMO_BASES.catalog);
    const b = await trackBase(mine.http, DEMO_BASES.marketing);
    const res = await mine.http('GET', '/usage/bases');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ bases: [a, b] });
  });
});

describe('PATCH /usage/bases/{id}', () => {
  it('answers the updated base, and takes a request without a body as an empty object', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.marketing);
    const res = await http('PATCH', `/usage/bases/${base.id}`, {
      body: { baseName: 'Renamed', scheduledHour: 3, timezone: 'Europe/Berlin' },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['base']);
    expect(res.body.base).toMatchObject({ id: base.id, baseName: 'Renamed', scheduledHour: 3, timezone: 'Europe/Berlin' });
    const bare = await http('PATCH', `/usage/bases/${base.id}`);
    expect(bare.status).toBe(200);
    expect(bare.body.base).toEqual(res.body.base);
  });

  it('answers 404 for another account’s base', async () => {
    const base = await trackBase(app.other.http, DEMO_BASES.catalog);
    const res = await app.http('PATCH', `/usage/bases/${base.id}`, { body: { baseName: 'mine now' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Usage base not found', code: 'not_found' });
  });
});

describe('DELETE /usage/bases/{id}', () => {
  it('answers 204 without a body; a second delete is 404', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.marketing);
    const res = await http('DELETE', `/usage/bases/${base.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const again = await http('DELETE', `/usage/bases/${base.id}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('not_found');
  });
});
