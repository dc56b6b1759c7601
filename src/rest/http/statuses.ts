import type { ErrorStatus, RouteSpec } from './route.js';

/**
 * Failures answered in front of every handler, whatever the operation: 400 for a malformed request or JSON body, an
 * unsupported body encoding or a path that is not valid percent-encoding; 408 and 431 from the HTTP parser (a request
 * too slow to arrive, headers too long); 413 for a body over 1 MiB; 500 for anything unexpected; 503 while starting
 * or shutting down.
 */
const EDGE_STATUSES: ErrorStatus[] = [400, 408, 413, 431, 500, 503];

/** Every failure status an operation can answer: the edge's, the key check's and the request budget's, and its own. */
export function errorStatusesOf(route: RouteSpec): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>([...EDGE_STATUSES, ...route.errors]);
  if (route.auth !== false) statuses.add(401);
  // The budget counts every request that carries a live key, public operations included.
  if (route.rateLimited !== false) statuses.add(429);
  // A write that the web application's session cookie authenticates needs its X-CSRF-Token (csrf_failed).
  if (route.method !== 'get' && route.rateLimited !== false) statuses.add(403);
  return [...statuses].sort((a, b) => a - b);
}
