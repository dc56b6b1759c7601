import { Router } from 'express';
import { jsonWithRaw, RawJson } from '../services/raw-json.js';
import type { Services } from '../services.js';
import { mount } from './http/route.js';
import { changeRoutes as spec } from './changes.spec.js';

export function createChangesRouter({ monitoringConfigs, changeQueries }: Services): Router {
  const router = Router();
  mount(router, spec.list, async ({ account, params, query }) => {
    const config = await monitoringConfigs.logTarget(account.id, params.id);
    const { records, nextCursor } = await changeQueries.list(config, query);
    return new RawJson(
      jsonWithRaw({
        configId: config.id,
        monitoringBaseId: config.monitoringBaseId,
        monitoringTableId: config.monitoringTableId,
        records,
        nextCursor,
      }),
    );
  });
  return router;
}
