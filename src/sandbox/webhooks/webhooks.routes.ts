import express, { type Router } from 'express';
import { z } from 'zod';
import { parseBody, searchParamsOf } from '../request-helpers.js';
import { invalidRequest, routeNotFound } from '../sandbox-errors.js';
import { MAX_PAYLOADS_PER_PAGE, type SandboxWebhooks } from './webhook-registry.js';

const enableBody = z.strictObject({ enable: z.boolean() });
const POSITIVE_INTEGER = /^[1-9]\d{0,14}$/;

/** /v0/bases/{baseId}/webhooks…; mounted before the records routes, whose /v0/:baseId/:table would match too. */
export function createWebhooksRouter(webhooks: SandboxWebhooks): Router {
  const router = express.Router();
  const root = '/v0/bases/:baseId/webhooks';
  const one = `${root}/:webhookId`;

  router.post(root, (req, res) => {
    res.json(webhooks.create(req.params.baseId, req.body));
  });

  router.get(root, (req, res) => {
    res.json({ webhooks: webhooks.list(req.params.baseId) });
  });

  router.delete(one, (req, res) => {
    webhooks.delete(req.params.baseId, req.params.webhookId);
    res.status(200).end();
  });

  router.post(`${one}/refresh`, (req, res) => {
    res.json(webhooks.refresh(req.params.baseId, req.params.webhookId));
  });

  router.post(`${one}/enableNotifications`, (req, res) => {
    const { enable } = parseBody(enableBody, req.body);
    webhooks.setNotifications(req.params.baseId, req.params.webhookId, enable);
    res.status(200).end();
  });

  router.get(`${one}/payloads`, (req, res) => {
    const query = searchParamsOf(req);
    const cursor = positiveInteger(query.get('cursor'), 1, 'cursor');
    const limit = positiveInteger(query.get('limit'), MAX_PAYLOADS_PER_PAGE, 'limit');
    if (limit > MAX_PAYLOADS_PER_PAGE) throw invalidRequest(`Invalid request: limit must be at most ${MAX_PAYLOADS_PER_PAGE}.`);
    res.json(webhooks.listPayloads(req.params.baseId, req.params.webhookId, cursor, limit));
  });

  router.all(`${root}{/*rest}`, () => {
    throw routeNotFound();
  });

  return router;
}

function positiveInteger(value: string | null, fallback: number, name: string): number {
  if (value === null) return fallback;
  if (!POSITIVE_INTEGER.test(value)) throw invalidRequest(`Invalid request: ${name} must be a positive integer.`);
  return Number(value);
}
