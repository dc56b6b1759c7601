import { Router } from 'express';
import { jsonWithRaw } from '../services/raw-json.js';
import type { Services } from '../services.js';
import { digestEtag, JsonBody } from './http/json-body.js';
import { mount } from './http/route.js';
import { changeRoutes as endpoints } from './changes.endpoints.js';

export function createChangesRouter({ monitoringConfigs, changeQueries }: Services): Router {
  const router = Router();
  mount(router, endpoints.list, async ({ account, params, query }) => {
    const config = await monitoringConfigs.logTarget(account.id, params.id);
    const { records, nextCursor } = await changeQueries.list(config, query);
    const body = jsonWithRaw({
      configId: config.id,
      monitoringBaseId: config.monitoringBaseId,
      monitoringTableId: config.monitoringTableId,
      records,
      nextCursor,
    });
    // Every write to the config's entries bumps its changes version: the version and the query name the page.
    return new JsonBody(body, digestEtag(['changes', config.id, config.changesVersion, JSON.stringify(query)].join(':')));
  });
  return router;
}
