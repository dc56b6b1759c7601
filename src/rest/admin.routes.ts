import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Agenda } from 'agenda';
import { createExpressMiddleware } from 'agendash';
import { requireAdminToken } from '../http/admin-token.js';
import { FRAMING_ONLY_CSP } from '../http/security-headers.js';

/** Agendash's pages come whole from its package: they keep what they load, but are framed nowhere. */
const framedNowhere = (_req: Request, res: Response, next: NextFunction) => {
  res.setHeader('Content-Security-Policy', FRAMING_ONLY_CSP);
  next();
};

/**
 * Operator pages behind ADMIN_TOKEN: the Agenda dashboard at /admin/jobs. The token is accepted as a bearer token
 * or as the password of HTTP Basic auth (any user name), so a browser can log in. Without ADMIN_TOKEN nothing is mounted.
 */
export function createAdminRouter(adminToken: string, agenda: Agenda): Router {
  const router = Router();
  router.use('/admin', requireAdminToken(adminToken));
  router.use('/admin/jobs', framedNowhere, createExpressMiddleware(agenda));
  return router;
}
