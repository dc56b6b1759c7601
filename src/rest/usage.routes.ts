import { Router } from 'express';
import type { Services } from '../services.js';
import { digestEtag, JsonBody } from './http/json-body.js';
import { mount } from './http/route.js';
import { lostOf } from './lost-ids.js';
import { snapshotDayJson, toUsageAlertResponse, toUsageBaseResponse } from './usage.mappers.js';
import { usageInsightRoutes as insight } from './usage-insight.endpoints.js';
import { usageRoutes as endpoints } from './usage.endpoints.js';

export function createUsageRouter(services: Services): Router {
  const { usageBases, snapshots, usageCounts, usageSchedule, usageLimits, usageAlerts, usageForecasts, usageCounting } = services;
  const router = Router();

  mount(router, endpoints.list, async ({ account }) => {
    const bases = await usageBases.list(account.id);
    return { bases: bases.map(toUsageBaseResponse), ...lostOf(await usageBases.lostAmong(account.id, bases)) };
  });
  mount(router, endpoints.create, async ({ account, body }) => ({
    base: toUsageBaseResponse(await usageBases.create(account.id, body)),
  }));
  mount(router, endpoints.update, async ({ account, params, body }) => ({
    base: toUsageBaseResponse(await usageBases.update(account.id, params.id, body)),
  }));
  mount(router, endpoints.remove, async ({ account, params }) => usageBases.remove(account.id, params.id));

  mount(router, endpoints.snapshots, async ({ account, params, query }) => {
    const base = await usageBases.get(account.id, params.id);
    const page = await snapshots.listOf(base, query);
    const cursor = page.nextCursor ? `,"nextCursor":"${page.nextCursor}"` : '';
    const body = `{"baseId":${JSON.stringify(page.baseId)},"days":[${page.days.map(snapshotDayJson).join(',')}]${cursor}}`;
    // Every recorded day bumps the base's snapshot version: the version and the query name the page.
    return new JsonBody(
      body,
      digestEtag(['days', base.id, base.snapshotVersion, query.from, query.to, query.cursor, query.limit].join(':')),
    );
  });
  mount(router, endpoints.latest, async ({ account, params }) => {
    const base = await usageBases.get(account.id, params.id);
    const day = (await snapshots.listOf(base, { limit: 1 })).days[0];
    const body = `{"baseId":${JSON.stringify(base.baseId)},"day":${day ? snapshotDayJson(day) : 'null'}}`;
    return new JsonBody(body, digestEtag(['latest', base.id, base.snapshotVersion].join(':')));
  });
  mount(router, endpoints.limits, async ({ account, params }) => ({ limits: await usageLimits.get(account.id, params.id) }));
  mount(router, endpoints.updateLimits, async ({ account, params, body }) => ({
    limits: await usageLimits.update(account.id, params.id, body),
  }));
  mount(router, endpoints.schedule, async ({ account, params }) => {
    const { nextRunAt, lastRun } = await usageSchedule.schedule(account.id, params.id);
    return {
      nextRunAt: nextRunAt?.toISOString() ?? null,
      lastRun: lastRun && {
        startedAt: lastRun.startedAt.toISOString(),
        finishedAt: lastRun.finishedAt?.toISOString() ?? null,
        status: lastRun.status,
        ...(lastRun.error ? { error: lastRun.error } : {}),
      },
    };
  });
  mount(router, insight.alerts, async ({ account, query }) => {
    const page = await usageAlerts.list(account.id, query);
    return { alerts: page.alerts.map(toUsageAlertResponse), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });
  mount(router, insight.forecast, async ({ account, params }) => usageForecasts.get(account.id, params.id));
  mount(router, insight.counting, async ({ account, params }) => ({ counting: await usageCounting.get(account.id, params.id) }));
  mount(router, insight.updateCounting, async ({ account, params, body }) => ({
    counting: await usageCounting.update(account.id, params.id, body),
  }));
  mount(router, endpoints.run, async ({ account, params }) => usageCounts.count(account.id, params.id));

  return router;
}
