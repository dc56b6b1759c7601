import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCsrfToken } from '../../src/auth/csrf.js';
import { createLogger } from '../../src/logger.js';
import { errorHandler } from '../../src/http/error-handler.js';

/**
 * The middleware between `authenticate` and the routes, in an Express app of its own: session cookies arrive with
 * issue 16, so a stand-in marks the requests as its session lookup will (`authMethod`, `csrfToken`).
 */
let server: Server;
let url: string;

beforeAll(async () => {
  const app = express();
  app.use((req, res, next) => {
    const method = req.get('x-test-auth');
    if (method) res.locals.authMethod = method;
    if (method === 'session') res.locals.csrfToken = 'token-of-the-session';
    next();
  });
  app.use(requireCsrfToken());
  app.all('/write', (_req, res) => void res.status(204).end());
  app.all('/graphql', (_req, res) => void res.status(204).end());
  app.use(errorHandler(createLogger('silent')));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const send = (method: string, auth: string | undefined, headers: Record<string, string> = {}, path = '/write') =>
  fetch(`${url}${path}`, { method, headers: { ...(auth ? { 'x-test-auth': auth } : {}), ...headers } });

describe(requireCsrfToken.name, () => {
  it('lets API-key and unauthenticated requests through whatever their method and content type', async () => {
    for (const auth of ['api_key', undefined]) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        expect((await send(method, auth, { 'content-type': 'text/plain' })).status, `${auth} ${method}`).toBe(204);
      }
    }
  });

  it('refuses a session-cookie write without the session’s X-CSRF-Token: 403 csrf_failed', async () => {
    const withoutTheToken: Record<string, string>[] = [{}, { 'x-csrf-token': 'another-token' }, { 'x-csrf-token': '' }];
    for (const headers of withoutTheToken) {
      const res = await send('POST', 'session', headers);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ code: 'csrf_failed', message: expect.stringContaining('X-CSRF-Token') });
    }
    const graphql = await send('POST', 'session', {}, '/graphql');
    expect(graphql.status).toBe(403);
    expect(await graphql.json()).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'csrf_failed' } }] });
  });

  it('lets a session-cookie write with the token through, and its reads without one', async () => {
    expect((await send('PATCH', 'session', { 'x-csrf-token': 'token-of-the-session' })).status).toBe(204);
    expect((await send('GET', 'session')).status).toBe(204);
    expect((await send('HEAD', 'session')).status).toBe(204);
  });
});
