import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestHandler } from 'express';
import type { FaultControl } from './fault-control.js';
import type { RateLimiter } from './rate-limiter.js';
import type { SandboxStats } from './sandbox-stats.js';
import { injectedError, rateLimited } from './sandbox-errors.js';
import { searchParamsOf } from './request-helpers.js';

export interface TrafficDependencies {
  faults: FaultControl;
  limiter: RateLimiter;
  stats: SandboxStats;
}

/** Airtable's limit across everything one token does; only list-bases names no base, so only it is held to this. */
const TOKEN_LIMIT_PER_SECOND = 50;

/** After auth, for every non-control request: rate limit (at arrival) → latency → injected error. */
export function createTrafficMiddleware({ faults, limiter, stats }: TrafficDependencies): RequestHandler {
  return async (req, _res, next) => {
    const baseId = baseIdFromPath(req.path);
    const settings = faults.get();
    stats.recordRequest(baseId, { method: req.method, path: req.path, fields: requestedFields(searchParamsOf(req), req.body) });
    const admitted = baseId !== undefined
      ? limiter.admit(`base:${baseId}`, settings.rateLimitPerSecond, settings.lockoutMs)
      : !isListBases(req.path) || limiter.admit('token', TOKEN_LIMIT_PER_SECOND, settings.lockoutMs);
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

function isListBases(path: string): boolean {
  return /^\/v0\/meta\/bases\/?$/.test(path);
}
