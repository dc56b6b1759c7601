import { Router } from 'express';
import { clearOAuthBrowserCookie, readOAuthBrowserCookie, setOAuthBrowserCookie } from '../auth/oauth-browser-cookie.js';
import type { Services } from '../services.js';
import { toConnectionResponse } from '../services/connections/connection-response.js';
import { connectionRoutes as spec } from './connection.spec.js';
import { mount } from './http/route.js';

export function createConnectionRouter({ connections, oauthFlow }: Services, secureCookie: boolean): Router {
  const router = Router();
  mount(router, spec.get, async ({ account }) => {
    const connection = await connections.get(account.id);
    return { connection: connection && toConnectionResponse(connection) };
  });
  mount(router, spec.setToken, async ({ account, body }) => ({
    connection: toConnectionResponse(await connections.setToken(account.id, body.token)),
  }));
  mount(router, spec.remove, async ({ account }) => connections.remove(account.id));
  mount(router, spec.startOAuth, async ({ account }, req) => {
    const { authorizeUrl, browserBinding } = await oauthFlow.start(account.id);
    setOAuthBrowserCookie(req.res!, browserBinding, secureCookie);
    return { authorizeUrl };
  });
  mount(router, spec.callback, async ({ query }, req) => {
    clearOAuthBrowserCookie(req.res!, secureCookie);
    return { connection: toConnectionResponse((await oauthFlow.complete(query, readOAuthBrowserCookie(req))).connection) };
  });
  return router;
}
