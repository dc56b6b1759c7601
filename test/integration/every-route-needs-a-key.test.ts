import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAUTH_CALLBACK_PATH } from '../../src/http/oauth-callback-path.js';
import { allRoutes } from '../../src/rest/openapi.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
let revokedKey: string;
beforeAll(async () => {
  app = await startTestApp();
  const { account, apiKey } = await app.running.services.accounts.create('revoked');
  const [key] = await app.running.services.accounts.listKeys(account.id);
  await app.running.services.accounts.revokeKey(key.id);
  revokedKey = apiKey;
});
afterAll(() => app.close());

const samplePath = (path: string) => path.replace('{id}', '00000000-0000-4000-8000-000000000000').replace('{baseId}', 'appAAAAAAAAAAAAAA');
const protectedRoutes = allRoutes.filter((route) => route.auth !== false);
const publicRoutes = allRoutes.filter((route) => route.auth === false);

describe('authentication on every operation', () => {
  for (const route of protectedRoutes) {
    it(`${route.method.toUpperCase()} ${route.path} answers 401 without a key, with a malformed one and with a revoked one`, async () => {
      const body = route.body ? {} : undefined;
      const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer nonsense' }, { authorization: `Bearer ${revokedKey}` }];
      for (const headers of attempts) {
        const res = await app.http(route.method.toUpperCase(), samplePath(route.path), { key: null, headers, body });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: expect.any(String), code: 'unauthorized' });
      }
    });
  }

  for (const route of publicRoutes) {
    it(`${route.method.toUpperCase()} ${route.path} is public and ignores a junk Authorization header`, async () => {
      const res = await app.http(route.method.toUpperCase(), route.path, { key: null, headers: { authorization: 'Bearer junk' } });
      // The OAuth callback is authenticated by its state: without one it is a bad request, not an unknown caller.
      if (route.path === OAUTH_CALLBACK_PATH) {
        expect(res.status).toBe(400);
        return void expect(res.body.message).toMatch(/OAuth state/);
      }
      if (route.method === 'get') return void expect(res.status).toBe(200);
      // The web application's password endpoints: no body is a bad request (sign-out has none to check).
      if (route.path.startsWith('/auth/')) return void expect(res.status).toBe(route.path === '/auth/sign-out' ? 204 : 400);
      // The upstream's pings carry no API key; they are refused for want of a valid MAC, not of a key.
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(/MAC/);
    });
  }
});
