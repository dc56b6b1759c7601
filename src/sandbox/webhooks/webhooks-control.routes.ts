import express, { type Router } from 'express';
import { z } from 'zod';
import { invalidControlSettings } from '../sandbox-errors.js';
import type { SandboxWebhooks } from './webhook-registry.js';

const dropBody = z.strictObject({ throughCursor: z.number().int().min(1).optional() });

/**
 * Sandbox-only, under `/_control` (admin token): make a webhook miss changes the way the platform can, so a client's
 * gap handling can be tested: expire it now, delete it, or delete its stored payloads as the one-week retention does.
 */
export function createWebhooksControlRouter(webhooks: SandboxWebhooks): Router {
  const router = express.Router();
  router.use(express.json({ limit: '100kb' }));

  router.post('/webhooks/:webhookId/expire', (req, res) => {
    res.json(webhooks.expireNow(req.params.webhookId));
  });

  router.post('/webhooks/:webhookId/delete', (req, res) => {
    res.json(webhooks.deleteNow(req.params.webhookId));
  });

  router.post('/webhooks/:webhookId/drop-payloads', (req, res) => {
    const parsed = dropBody.safeParse(req.body ?? {});
    if (!parsed.success) throw invalidControlSettings(z.prettifyError(parsed.error));
    res.json(webhooks.dropPayloads(req.params.webhookId, parsed.data.throughCursor));
  });

  return router;
}
