import { Router } from 'express';
import { jsonWithRaw } from '../services/raw-json.js';
import type { Services } from '../services.js';
import { ResponseCache } from './http/cached-body.js';
import { mount } from './http/route.js';
import { changeRoutes as spec } from './changes.spec.js';

/**
 * Rendered change pages, keyed by the config's changes version: every write to its entries (new changes, stored
 * monitoringRecordIds, pruning) bumps it in the same transaction, so a cached page never hides one.
 */
const CHANGE_PAGE_CACHE_BYTES = 16 * 1024 * 1024;

export function createChangesRouter({ monitoringConfigs, changeQueries }: Services): Router {
  const router = Router();
  const pages = new ResponseCache(CHANGE_PAGE_CACHE_BYTES);
  mount(router, spec.list, async ({ account, params, query }) => {
    const config = await monitoringConfigs.logTarget(account.id, params.id);
    const key = ['changes', config.id, config.changesVersion, JSON.stringify(query)].join(':');
    return pages.getOrRender(key, async () => {
      const { records, nextCursor } = await changeQueries.list(config, query);
      return jsonWithRaw({
        configId: config.id,
        monitoringBaseId: config.monitoringBaseId,
        monitoringTableId: config.monitoringTableId,
        records,
        nextCursor,
      });
    });
  });
  return router;
}
