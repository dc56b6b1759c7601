import { Router } from 'express';
import type { Services } from '../services.js';
import { toConnectionResponse } from './connection.mappers.js';
import { connectionRoutes as spec } from './connection.spec.js';
import { mount } from './http/route.js';

export function createConnectionRouter({ connections, oauthFlow }: Services): Router {
  const router = Router();
  mount(router, spec.get, async ({ account }) => {
    const connection = await connections.get(account.id);
    return { connection: connection && toConnectionResponse(connection) };
  });
  mount(router, spec.setToken, async ({ account, body }) => ({
    connection: toConnectionResponse(await connections.setToken(account.id, body.token)),
  }));
  mount(router, spec.remove, async ({ account }) => connections.remove(account.id));
  mount(router, spec.startOAuth, async ({ account }) => oauthFlow.start(account.id));
  mount(router, spec.callback, async ({ query }) => ({
    connection: toConnectionResponse((await oauthFlow.complete(query)).connection),
  }));
  return router;
}
