import { Router } from 'express';
import type { Services } from '../services.js';
import { mount } from './http/route.js';
import { toDeliveryResponse, toWebhookResponse } from './webhooks.mappers.js';
import { webhookRoutes as spec } from './webhooks.spec.js';

export function createWebhooksRouter({ webhooks, webhookDeliveries }: Services): Router {
  const router = Router();

  mount(router, spec.list, async ({ account, query }) => ({
    webhooks: (await webhooks.list(account.id, query.baseId)).map(toWebhookResponse),
  }));
  mount(router, spec.create, async ({ account, body }) => {
    const { webhook, secret } = await webhooks.create(account.id, body);
    return { webhook: toWebhookResponse(webhook), secret };
  });
  mount(router, spec.remove, async ({ account, params }) => webhooks.remove(account.id, params.webhookId));
  mount(router, spec.deliveries, async ({ account, params, query }) => {
    const page = await webhookDeliveries.list(account.id, params.webhookId, query);
    return { deliveries: page.deliveries.map(toDeliveryResponse), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });
  mount(router, spec.retry, async ({ account, params }) => ({
    delivery: toDeliveryResponse(await webhookDeliveries.retry(account.id, params.webhookId, params.deliveryId)),
  }));
  mount(router, spec.rotateSecret, async ({ account, params }) => ({
    secret: await webhooks.rotateSecret(account.id, params.webhookId),
  }));

  return router;
}
