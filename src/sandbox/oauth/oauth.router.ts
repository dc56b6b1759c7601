import express, { type Router } from 'express';
import type { SandboxAuth } from '../auth/sandbox-auth.js';
import { createAuthorizeRouter } from './authorize.routes.js';
import { createTokenRouter } from './token.routes.js';

/** The OAuth 2.0 routes, mounted before bearer auth: the browser and the integration authenticate otherwise. */
export function createOAuthRouter(auth: SandboxAuth): Router {
  const router = express.Router();
  router.use(createAuthorizeRouter(auth));
  router.use(createTokenRouter(auth));
  return router;
}
