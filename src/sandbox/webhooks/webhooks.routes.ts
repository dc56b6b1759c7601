import express, { type Request, type Router } from 'express';
import { z } from 'zod';
import { principalOf, webhookOwnerOf, type Principal } from '../auth/principal.js';
import { grants, scopesForDataTypes } from '../auth/scopes.js';
import { parseBody, searchParamsOf } from '../request-helpers.js';
import { invalidRequest, modelNotFound, routeNotFound } from '../sandbox-errors.js';
import { MAX_PAYLOADS_PER_PAGE, type SandboxWebhooks } from './webhook-registry.js';

const enableBody = z.strictObject({ enable: z.boolean() });
const POSITIVE_INTEGER = /^[1-9]\d{0,14}$/;

/** /v0/bases/{baseId}/webhooks…; mounted before the records routes, whose /v0/:baseId/:table would match too. */
export function createWebhooksRouter(webhooks: SandboxWebhooks): Router {
  const router = express.Router();
  const root = '/v0/bases/:baseId/webhooks';
  const one = `${root}/:webhookId`;

  router.post(root, (req, res) => {
    const principal = principalOf(req);
    if (principal) requireScopes(principal, scopesForDataTypes(dataTypesIn(req.body)));
    res.json(webhooks.create(req.params.baseId, req.body, principal && webhookOwnerOf(principal)));
  });

  router.get(root, (req, res) => {
    res.json({ webhooks: webhooks.list(req.params.baseId, viewerOf(req)) });
  });

  router.delete(one, (req, res) => {
    webhooks.delete(req.params.baseId, req.params.webhookId, viewerOf(req));
    res.status(200).end();
  });

  router.post(`${one}/refresh`, (req, res) => {
    res.json(webhooks.refresh(req.params.baseId, req.params.webhookId, viewerOf(req)));
  });

  router.post(`${one}/enableNotifications`, (req, res) => {
    const { enable } = parseBody(enableBody, req.body);
    webhooks.setNotifications(req.params.baseId, req.params.webhookId, enable, viewerOf(req));
    res.status(200).end();
  });

  router.get(`${one}/payloads`, (req, res) => {
    const query = searchParamsOf(req);
    const cursor = positiveInteger(query.get('cursor'), 1, 'cursor');
    const limit = positiveInteger(query.get('limit'), MAX_PAYLOADS_PER_PAGE, 'limit');
    if (limit > MAX_PAYLOADS_PER_PAGE) throw invalidRequest(`Invalid request: limit must be at most ${MAX_PAYLOADS_PER_PAGE}.`);
    const principal = principalOf(req);
    const viewer = viewerOf(req);
    if (principal) requireScopes(principal, scopesForDataTypes(webhooks.dataTypesOf(req.params.baseId, req.params.webhookId, viewer)));
    res.json(webhooks.listPayloads(req.params.baseId, req.params.webhookId, cursor, limit, viewer));
  });

  router.all(`${root}{/*rest}`, () => {
    throw routeNotFound();
  });

  return router;
}

/** An OAuth integration sees only its own webhooks, a PAT those of its user's PATs. */
function viewerOf(req: Request): string | undefined {
  const principal = principalOf(req);
  return principal && webhookOwnerOf(principal).key;
}

/** `webhook:manage` is checked with the route; the data types' scopes (airtable-oauth.md §4.2) here. */
function requireScopes(principal: Principal, scopes: string[]): void {
  if (scopes.some((scope) => !grants(principal.scopes, scope))) throw modelNotFound();
}

/** Read leniently: an invalid specification is refused by the registry's validation afterwards. */
function dataTypesIn(body: unknown): string[] {
  const dataTypes = (body as { specification?: { options?: { filters?: { dataTypes?: unknown } } } } | undefined)?.specification?.options
    ?.filters?.dataTypes;
  return Array.isArray(dataTypes) ? dataTypes.filter((type): type is string => typeof type === 'string') : [];
}

function positiveInteger(value: string | null, fallback: number, name: string): number {
  if (value === null) return fallback;
  if (!POSITIVE_INTEGER.test(value)) throw invalidRequest(`Invalid request: ${name} must be a positive integer.`);
  return Number(value);
}
