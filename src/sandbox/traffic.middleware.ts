import { setTimeout as sleep } from 'node:timers/promises';
import type { Request, RequestHandler } from 'express';
import { principalOf } from './auth/principal.js';
import type { FaultControl } from './fault-control.js';
import type { RateLimiter } from './rate-limiter.js';
import type { SandboxStats } from './sandbox-stats.js';
import { injectedError, rateLimited } from './sandbox-errors.js';
import { searchParamsOf } from './request-helpers.js';

export interface TrafficDependencies {
  faults: FaultControl;
  limiter: RateLimiter;
  stats: SandboxStats;
  /** Throws the 403 for a base or scope the request's token was not granted. */
  checkAccess: (req: Request) => void;
}

/**
 * After auth, for every non-control request: the user's rate limit (at arrival) → access (base and scope) → the
 * base's rate limit → latency → injected error.
 */
export function createTrafficMiddleware({ faults, limiter, stats, checkAccess }: TrafficDependencies): RequestHandler {
  return async (req, _res, next) => {
    const baseId = baseIdFromPath(req.path);
    const settings = faults.get();
    stats.recordRequest(baseId, { method: req.method, path: req.path, fields: requestedFields(searchParamsOf(req), req.body) });
    const userKey = userLimitKey(req);
    if (userKey !== undefined && !limiter.admit(userKey, settings.userRateLimitPerSecond, settings.lockoutMs)) {
      stats.recordRateLimited(baseId);
      throw rateLimited(settings.rateLimitBody);
    }
    checkAccess(req);
    const admitted = baseId === undefined || limiter.admit(`base:${baseId}`, settings.rateLimitPerSecond, settings.lockoutMs);
    if (!admitted) {
      stats.recordRateLimited(baseId);
      throw rateLimited(settings.rateLimitBody);
    }
    if (settings.latencyMs > 0) await sleep(settings.latencyMs);
    if (faults.drawInjectedError()) {
      stats.recordFault();
      if (settings.errorStatus === 429) stats.recordRateLimited(baseId);
      throw injectedError(settings.errorStatus, settings.rateLimitBody);
    }
    next();
  };
}

/** The base a request is about: /v0/meta/bases/{id}/…, /v0/bases/{id}/… (webhooks) or /v0/{id}/…. */
export function baseIdFromPath(path: string): string | undefined {
  const segments = path.split('/').filter(Boolean);
  if (segments[0] !== 'v0' || segments.length < 2) return undefined;
  if (segments[1] === 'meta') return segments[2] === 'bases' ? segments[3] : undefined;
  if (segments[1] === 'bases') return segments[2];
  return segments[1];
}

/** The `fields[]` a list request asked for (query or listRecords body); undefined when it named none. */
function requestedFields(query: URLSearchParams, body: unknown): string[] | undefined {
  const fromQuery = [...query].filter(([key]) => /^fields\[\d*\]$/.test(key)).map(([, value]) => value);
  if (fromQuery.length > 0) return fromQuery;
  const fromBody = (body as { fields?: unknown } | undefined)?.fields;
  return Array.isArray(fromBody) ? fromBody.map(String) : undefined;
}

/**
 * Airtable's 50 requests/s per user, across all of the user's tokens. The admin token is held to it on list-bases
 * only (as before users existed), so setups that raise the per-base limit for speed keep working.
 */
function userLimitKey(req: Request): string | undefined {
  const principal = principalOf(req);
  if (principal && !principal.admin) return `user:${principal.user.id}`;
  return isListBases(req.path) ? 'admin' : undefined;
}

function isListBases(path: string): boolean {
  return /^\/v0\/meta\/bases\/?$/.test(path);
}
