import { Router } from 'express';
import type { Services } from '../services.js';
import { RawJson, mount } from './http/route.js';
import { snapshotDayJson, toUsageBaseResponse } from './usage.mappers.js';
import { usageRoutes as spec } from './usage.spec.js';

export function createUsageRouter({ usageBases, snapshots, usageCounts, usageSchedule }: Services): Router {
  const router = Router();

  mount(router, spec.list, async ({ account }) => ({
    bases: (await usageBases.list(account.id)).map(toUsageBaseResponse),
  }));
  mount(router, spec.create, async ({ account, body }) => ({
    base: toUsageBaseResponse(await usageBases.create(account.id, body)),
  }));
  mount(router, spec.update, async ({ account, params, body }) => ({
    base: toUsageBaseResponse(await usageBases.update(account.id, params.id, body)),
  }));
  mount(router, spec.remove, async ({ account, params }) => usageBases.remove(account.id, params.id));

  mount(router, spec.snapshots, async ({ account, params, query }) => {
    const page = await snapshots.list(account.id, params.id, query);
    const cursor = page.nextCursor ? `,"nextCursor":"${page.nextCursor}"` : '';
    return new RawJson(`{"baseId":${JSON.stringify(page.baseId)},"days":[${page.days.map(snapshotDayJson).join(',')}]${cursor}}`);
  });
  mount(router, spec.latest, async ({ account, params }) => {
    const { baseId, day } = await snapshots.latest(account.id, params.id);
    return new RawJson(`{"baseId":${JSON.stringify(baseId)},"day":${day ? snapshotDayJson(day) : 'null'}}`);
  });
  mount(router, spec.schedule, async ({ account, params }) => {
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
  mount(router, spec.run, async ({ account, params }) => usageCounts.count(account.id, params.id));

  return router;
}
