import { timingSafeEqual } from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Agenda } from 'agenda';
import { createExpressMiddleware } from 'agendash';
import { AppError } from '../errors.js';
import { renderError } from './http/error-handler.js';
import { FRAMING_ONLY_CSP } from './http/security-headers.js';

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

/** The operator pages' check (also /metrics): the admin token, or 401 with a Basic challenge. */
export function requireAdminToken(adminToken: string) {
  const expected = Buffer.from(adminToken);
  return (req: Request, res: Response, next: NextFunction) => {
    const presented = Buffer.from(presentedToken(req.headers.authorization) ?? '');
    if (presented.length === expected.length && timingSafeEqual(presented, expected)) return next();
    res.setHeader('WWW-Authenticate', 'Basic realm="basewatch admin", charset="UTF-8"');
    renderError(new AppError('unauthorized', 'Admin token required'), res);
  };
}

function presentedToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value = ''] = header.split(' ', 2);
  if (/^bearer$/i.test(scheme)) return value;
  if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    return decoded.slice(decoded.indexOf(':') + 1);
  }
  return undefined;
}
