import express, { type Router } from 'express';
import { z } from 'zod';
import type { SandboxAuth } from '../auth/sandbox-auth.js';
import { invalidControlSettings } from '../sandbox-errors.js';
import { parseClientConfig, toClientResponse } from './oauth-clients.js';

const consentBody = z.union([
  z.strictObject({
    userId: z.string().min(1),
    baseIds: z.union([z.literal('all'), z.array(z.string().min(1))]),
    deny: z.literal(false).optional(),
  }),
  z.strictObject({
    userId: z.string().min(1),
    baseIds: z.union([z.literal('all'), z.array(z.string().min(1))]).optional(),
    deny: z.literal(true),
  }),
]);

/** Sandbox-only, under `/_control` (admin token): OAuth integrations, grants, and the consent shortcut. */
export function createOAuthControlRouter(auth: SandboxAuth): Router {
  const router = express.Router();
  router.use(express.json({ limit: '100kb' }));

  router.get('/oauth/clients', (_req, res) => {
    res.json({ clients: auth.clients.list().map(toClientResponse) });
  });

  router.post('/oauth/clients', (req, res) => {
    res.status(201).json(toClientResponse(auth.registerClient(parseClientConfig(req.body))));
  });

  /** Grants without their tokens. */
  router.get('/oauth/grants', (_req, res) => {
    res.json({
      grants: auth.grants.listGrants().map((grant) => ({
        id: grant.id,
        clientId: grant.clientId,
        userId: grant.userId,
        scopes: grant.scopes,
        baseIds: grant.baseIds,
        createdAt: grant.createdAt,
        accessTokenExpiresAt: new Date(grant.access.expiresAt).toISOString(),
        refreshTokenExpiresAt: new Date(grant.refresh.expiresAt).toISOString(),
      })),
    });
  });

  router.get('/oauth/consent', (_req, res) => {
    res.json({ consent: auth.getConsent() });
  });

  router.put('/oauth/consent', (req, res) => {
    const parsed = consentBody.safeParse(req.body ?? {});
    if (!parsed.success) throw invalidControlSettings(z.prettifyError(parsed.error));
    const { userId, baseIds = [], deny = false } = parsed.data;
    res.json({ consent: auth.setConsent({ userId, baseIds, deny }) });
  });

  router.delete('/oauth/consent', (_req, res) => {
    auth.clearConsent();
    res.json({ consent: null });
  });

  return router;
}
