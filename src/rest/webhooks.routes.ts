import { Router } from 'express';
import type { Services } from '../services.js';
import { mount } from './http/route.js';
import { toDeliveryResponse, toWebhookResponse } from './webhooks.mappers.js';
import { webhookRoutes as endpoints } from './webhooks.endpoints.js';

export function createWebhooksRouter({ webhooks, webhookDeliveries }: Services): Router {
  const router = Router();

  mount(router, endpoints.list, async ({ account, query }) => ({
    webhooks: (await webhooks.list(account.id, query.baseId)).map(toWebhookResponse),
  }));
  mount(router, endpoints.create, async ({ account, body }) => {
    const { webhook, secret } = await webhooks.create(account.id, body);
    return { webhook: toWebhookResponse(webhook), secret };
  });
  mount(router, endpoints.remove, async ({ account, params }) => webhooks.remove(account.id, params.webhookId));
  mount(router, endpoints.deliveries, async ({ account, params, query }) => {
    const page = await webhookDeliveries.list(account.id, params.webhookId, query);
    return { deliveries: page.deliveries.map(toDeliveryResponse), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });
  mount(router, endpoints.retry, async ({ account, params }) => ({
    delivery: toDeliveryResponse(await webhookDeliveries.retry(account.id, params.webhookId, params.deliveryId)),
  }));
  mount(router, endpoints.rotateSecret, async ({ account, params }) => ({
    secret: await webhooks.rotateSecret(account.id, params.webhookId),
  }));

  return router;
}
