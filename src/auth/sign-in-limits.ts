import type { Request, RequestHandler, Response } from 'express';
import { rateLimit, type Options, type Store } from 'express-rate-limit';
import { AppError } from '../errors.js';
import { renderError } from '../rest/http/error-handler.js';

const WINDOW_MS = 15 * 60 * 1000;
/** Failed attempts on one e-mail in the window: enough for typos, far too few for guessing. */
export const FAILURES_PER_EMAIL = 5;
/** Failed attempts from one address in the window, whatever the e-mail (guessing across many accounts). */
export const FAILURES_PER_IP = 30;

function refuse(req: Request, res: Response, _next: unknown, options: Options): void {
  const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
  const seconds = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : options.windowMs / 1000;
  renderError(new AppError('rate_limited', 'Too many failed attempts: wait before trying again', { retryAfterSeconds: seconds }), res);
}

const emailOf = (req: Request): string | undefined => {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined;
};

/**
 * Limits on the password endpoints, counting only failures (a person who signs in is not slowed down). Kept where
 * `storeFor` says (Redis for replicas, the cluster's primary for its workers); none: this process's memory.
 */
export function signInLimits(storeFor: (prefix: string) => Store | undefined = () => undefined): { perIp: RequestHandler; perEmail: RequestHandler } {
  const common = { windowMs: WINDOW_MS, skipSuccessfulRequests: true, standardHeaders: false, legacyHeaders: false, handler: refuse } as const;
  return {
    perIp: rateLimit({ ...common, limit: FAILURES_PER_IP, store: storeFor('sign-in-ip:') }),
    perEmail: rateLimit({
      ...common,
      store: storeFor('sign-in-email:'),
      limit: FAILURES_PER_EMAIL,
      skip: (req) => emailOf(req) === undefined,
      keyGenerator: (req) => `email:${emailOf(req)}`,
    }),
  };
}
