import { Router } from 'express';
import { clearOAuthBrowserCookie, readOAuthBrowserCookie, setOAuthBrowserCookie } from '../auth/oauth-browser-cookie.js';
import type { Services } from '../services.js';
import { toConnectionResponse } from '../services/connections/connection-response.js';
import { connectionRoutes as endpoints } from './connection.endpoints.js';
import { mount } from './http/route.js';

export function createConnectionRouter({ connections, oauthFlow }: Services, secureCookie: boolean): Router {
  const router = Router();
  mount(router, endpoints.get, async ({ account }) => {
    const connection = await connections.get(account.id);
    return { connection: connection && toConnectionResponse(connection) };
  });
  mount(router, endpoints.setToken, async ({ account, body }) => ({
    connection: toConnectionResponse(await connections.setToken(account.id, body.token)),
  }));
  mount(router, endpoints.remove, async ({ account }) => connections.remove(account.id));
  mount(router, endpoints.startOAuth, async ({ account }, req) => {
    const { authorizeUrl, browserBinding } = await oauthFlow.start(account.id);
    setOAuthBrowserCookie(req.res!, browserBinding, secureCookie);
    return { authorizeUrl };
  });
  mount(router, endpoints.callback, async ({ query }, req) => {
    clearOAuthBrowserCookie(req.res!, secureCookie);
    return { connection: toConnectionResponse((await oauthFlow.complete(query, readOAuthBrowserCookie(req))).connection) };
  });
  return router;
}
