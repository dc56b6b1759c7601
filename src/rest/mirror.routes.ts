import { Router } from 'express';
import type { Services } from '../services.js';
import { mount, WithStatus } from './http/route.js';
import { toHistoryBody, toMirrorResponse, toRestoreResponse } from './mirror.mappers.js';
import { mirrorRoutes as endpoints } from './mirror.endpoints.js';

export function createMirrorRouter({ mirrorReads, mirrorRestores }: Services): Router {
  const router = Router();
  mount(router, endpoints.state, async ({ account, params }) => ({
    mirror: toMirrorResponse(await mirrorReads.state(account.id, params.id)),
  }));
  mount(router, endpoints.search, async ({ account, params, query }) => ({
    records: await mirrorReads.searchRecords(account.id, params.id, query),
  }));
  mount(router, endpoints.record, async ({ account, params, query }) => ({
    record: await mirrorReads.record(account.id, params.id, params.recordId, query.at),
  }));
  mount(router, endpoints.history, async ({ account, params, query }) =>
    toHistoryBody(await mirrorReads.historyPage(account.id, params.id, params.recordId, query)),
  );
  mount(router, endpoints.deleted, async ({ account, params, query }) => mirrorReads.deleted(account.id, params.id, query));
  mount(router, endpoints.restore, async ({ account, params, body }) => {
    const restore = { restore: toRestoreResponse(await mirrorRestores.create(account.id, params.id, body)) };
    return body.dryRun ? new WithStatus(200, restore) : restore;
  });
  mount(router, endpoints.getRestore, async ({ account, params }) => ({
    restore: toRestoreResponse(await mirrorRestores.get(account.id, params.id, params.restoreId)),
  }));
  return router;
}
