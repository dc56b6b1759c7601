import { Router } from 'express';
import type { Services } from '../services.js';
import { mount } from './http/route.js';
import { apiCallRoutes as endpoints } from './api-calls.endpoints.js';

export function createApiCallsRouter({ apiCalls }: Services): Router {
  const router = Router();
  mount(router, endpoints.usage, async ({ account, query }) => {
    const { month, total, projected, byPurpose, byBase } = await apiCalls.month(account.id, query.month);
    return { month, total, projected, byPurpose, byBase };
  });
  return router;
}
