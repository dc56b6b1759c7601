import express, { type Router } from 'express';
import { z } from 'zod';
import { invalidControlSettings } from '../sandbox-errors.js';
import { toBaseResponse, toTableResponse } from '../schema-response.js';
import type { SandboxAuth, TokenSelector } from './sandbox-auth.js';
import { isKnownScope } from './scopes.js';
import { PERMISSION_LEVELS } from './user-directory.js';

const newUser = z.strictObject({
  email: z
    .string()
    .trim()
    .regex(/^[^@\s]+@[^@\s]+$/, 'an email address'),
  name: z.string().trim().min(1).max(200).optional(),
});
const newBase = z.strictObject({ name: z.string().trim().min(1).max(200) });
const share = z.strictObject({ userId: z.string().min(1), permissionLevel: z.enum(PERMISSION_LEVELS).optional() });
const newToken = z.strictObject({
  scopes: z.array(z.string().refine(isKnownScope, 'a known scope')).optional(),
  baseIds: z.array(z.string().min(1)).optional(),
});
const selector = z.union([z.strictObject({ token: z.string().min(1) }), z.strictObject({ userId: z.string().min(1) })]);

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw invalidControlSettings(z.prettifyError(parsed.error));
  return parsed.data;
}

/** Sandbox-only, under `/_control` (admin token): users, their bases and PATs; sharing; ending tokens. */
export function createUsersControlRouter(auth: SandboxAuth): Router {
  const router = express.Router();
  router.use(express.json({ limit: '100kb' }));

  router.get('/users', (_req, res) => {
    res.json({
      users: auth.directory.listUsers().map((user) => ({
        ...user,
        bases: auth.basesOfUser(user.id).map(({ base, level }) => ({ ...toBaseResponse(base), permissionLevel: level })),
      })),
    });
  });

  router.post('/users', (req, res) => {
    const { email, name } = parse(newUser, req.body);
    const { user, token } = auth.createUser(email, name);
    res.status(201).json({ ...user, token });
  });

  router.post('/users/:userId/bases', (req, res) => {
    const { name } = parse(newBase, req.body);
    const { base, table } = auth.createUserBase(req.params.userId, name);
    res.status(201).json({ ...toBaseResponse(base), tables: [toTableResponse(table)] });
  });

  router.post('/users/:userId/tokens', (req, res) => {
    const body = parse(newToken, req.body);
    const { token, stored } = auth.createPersonalToken(req.params.userId, {
      scopes: body.scopes ?? 'all',
      baseIds: body.baseIds ?? 'all',
    });
    res.status(201).json({ id: stored.id, userId: stored.userId, token, scopes: stored.scopes, baseIds: stored.baseIds });
  });

  router.post('/bases/:baseId/share', (req, res) => {
    const { userId, permissionLevel = 'create' } = parse(share, req.body);
    auth.share(req.params.baseId, userId, permissionLevel);
    res.json({ baseId: req.params.baseId, userId, permissionLevel });
  });

  router.post('/tokens/expire', (req, res) => {
    res.json({ expired: auth.expire(parse(selector, req.body) as TokenSelector) });
  });

  router.post('/tokens/revoke', (req, res) => {
    res.json({ revoked: auth.revoke(parse(selector, req.body) as TokenSelector) });
  });

  return router;
}
