import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit, type Options, type Store } from 'express-rate-limit';
import { AppError } from '../errors.js';
import { renderError } from '../http/error-handler.js';
import { normalizedEmail, type DeviceCookies } from './device-cookie.js';

const WINDOW_MS = 15 * 60 * 1000;
/** Failed attempts from one address in the window, whatever the e-mail (guessing across many accounts). */
export const FAILURES_PER_IP = 30;
/** Failed attempts on one e-mail from one address: enough for typos, far too few for guessing. */
export const FAILURES_PER_EMAIL_AND_IP = 5;
/** Failed attempts on one e-mail from every address together, browsers it knows aside (guessing from many addresses). */
export const FAILURES_PER_EMAIL = 50;
/** Failed attempts from one browser that signed in to the e-mail before (its device cookie). */
export const FAILURES_PER_DEVICE = 5;

function refuse(req: Request, res: Response, _next: unknown, options: Options): void {
  const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
  const seconds = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : options.windowMs / 1000;
  renderError(new AppError('rate_limited', 'Too many failed attempts: wait before trying again', { retryAfterSeconds: seconds }), res);
}

const emailOf = (req: Request): string | undefined => {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? normalizedEmail(email) : undefined;
};

/** The app trusts no proxy: the socket's address (an IPv6 address by its /56, as express-rate-limit advises). */
const addressOf = (req: Request): string => ipKeyGenerator(req.ip ?? '');

/**
 * Limits on the password endpoints, counting only failures (a person who signs in is not slowed down). Sign-in
 * is limited so that nobody can lock the rightful owner out: a browser that signed in to the e-mail before (its
 * device cookie) has a limit of its own and is held back by nothing else; every other attempt counts per address,
 * per (e-mail, address), and per e-mail across addresses with a bound high enough that reaching it takes many
 * addresses. Kept where `storeFor` says (Redis for replicas and WEB_CONCURRENCY workers); none: this process's
 * memory.
 */
export function signInLimits(
  devices: DeviceCookies,
  storeFor: (prefix: string) => Store | undefined = () => undefined,
): { perIp: RequestHandler; signIn: RequestHandler[] } {
  const common = {
    windowMs: WINDOW_MS,
    skipSuccessfulRequests: true,
    standardHeaders: false,
    legacyHeaders: false,
    handler: refuse,
  } as const;
  const deviceOf = (req: Request) => {
    const email = emailOf(req);
    return email === undefined ? undefined : devices.deviceFor(req, email);
  };
  // Memoised per request: the limits below ask in turn.
  const knownDevice = (req: Request): string | undefined => {
    const memo = req as Request & { signInDevice?: { device: string | undefined } };
    memo.signInDevice ??= { device: deviceOf(req) };
    return memo.signInDevice.device;
  };
  const unknownWithEmail = (req: Request) => emailOf(req) !== undefined && knownDevice(req) === undefined;
  return {
    // On every password endpoint; a browser known to the e-mail it signs in to is not counted (someone else failing
    // from the same address, an office's or a carrier's, does not lock it out).
    perIp: rateLimit({
      ...common,
      limit: FAILURES_PER_IP,
      store: storeFor('sign-in-ip:'),
      skip: (req) => knownDevice(req) !== undefined,
      keyGenerator: (req) => addressOf(req),
    }),
    // After perIp, in this order: a refusal by one limit is not counted by the ones after it, so the wide per-e-mail
    // bound is spent only by attempts the narrower ones let through.
    signIn: [
      rateLimit({
        ...common,
        limit: FAILURES_PER_DEVICE,
        store: storeFor('sign-in-device:'),
        skip: (req) => knownDevice(req) === undefined,
        keyGenerator: (req) => `device:${knownDevice(req)}`,
      }),
      rateLimit({
        ...common,
        limit: FAILURES_PER_EMAIL_AND_IP,
        store: storeFor('sign-in-email-ip:'),
        skip: (req) => !unknownWithEmail(req),
        keyGenerator: (req) => `email:${emailOf(req)}|${addressOf(req)}`,
      }),
      rateLimit({
        ...common,
        limit: FAILURES_PER_EMAIL,
        store: storeFor('sign-in-email:'),
        skip: (req) => !unknownWithEmail(req),
        keyGenerator: (req) => `email:${emailOf(req)}`,
      }),
    ],
  };
}
