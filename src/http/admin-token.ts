import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors.js';
import { renderError } from './error-handler.js';

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
