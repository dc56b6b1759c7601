import express, { Router } from 'express';
import type { Services } from '../services.js';
import { lostOf } from './lost-ids.js';
import { mount } from './http/route.js';
import { toMonitoringConfigResponse, toMonitoringStatusResponse } from './monitoring.mappers.js';
import { monitoringRoutes as endpoints } from './monitoring.endpoints.js';

/** The upstream's pings, mounted before the JSON parser: the MAC is computed over the exact body bytes. */
export function createNotificationRouter({ watches }: Services): Router {
  const router = Router();
  router.use(endpoints.notification.path, express.raw({ type: () => true, limit: '1mb' }));
  mount(router, endpoints.notification, async (_input, req) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    await watches.acceptPing(body, req.get('x-airtable-content-mac'));
  });
  return router;
}

export function createMonitoringRouter({ monitoringConfigs }: Services): Router {
  const router = Router();
  mount(router, endpoints.list, async ({ account }) => {
    const configs = await monitoringConfigs.list(account.id);
    return { configs: configs.map(toMonitoringConfigResponse), ...lostOf(await monitoringConfigs.lostAmong(account.id, configs)) };
  });
  mount(router, endpoints.create, async ({ account, body }) => ({
    config: toMonitoringConfigResponse(await monitoringConfigs.create(account.id, body)),
  }));
  mount(router, endpoints.get, async ({ account, params }) => ({
    config: toMonitoringConfigResponse(await monitoringConfigs.get(account.id, params.id)),
  }));
  mount(router, endpoints.status, async ({ account, params }) => ({
    status: toMonitoringStatusResponse(await monitoringConfigs.get(account.id, params.id)),
  }));
  mount(router, endpoints.update, async ({ account, params, body }) => ({
    config: toMonitoringConfigResponse(await monitoringConfigs.update(account.id, params.id, body)),
  }));
  mount(router, endpoints.remove, async ({ account, params }) => monitoringConfigs.remove(account.id, params.id));
  return router;
}
