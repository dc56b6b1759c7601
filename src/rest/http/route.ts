import type { Request, RequestHandler, Response, Router } from 'express';
import type { ZodType, z } from 'zod';
import type { AccountSummary } from '../../services/account.service.js';
import { invalidRequest, unauthorized } from '../../errors.js';
import { JsonBody } from './json-body.js';

export type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 413 | 429 | 431 | 500 | 502 | 503;

/** One REST operation, declared once: the router validates with these schemas and the OpenAPI document prints them. */
export interface RouteSpec<P extends ZodType = ZodType, Q extends ZodType = ZodType, B extends ZodType = ZodType> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form: /usage/bases/{id} */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** false for the few public operations (health checks, the document itself). */
  auth?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  success: { status: 200 | 201 | 202 | 204; description: string; schema?: ZodType };
  /** Another success status the operation answers with the same schema (a dry run's 200 beside 202). */
  alsoSucceeds?: { status: 200; description: string };
  /** This operation's own failures; those every operation can answer are added by `errorStatusesOf`. */
  errors: ErrorStatus[];
  /** false for operations answered before the per-key request budget is counted (the upstream's pings). */
  rateLimited?: false;
  /** The response carries an ETag, and a request with a matching If-None-Match gets 304 without a body. */
  conditional?: boolean;
}

export const defineRoute = <P extends ZodType, Q extends ZodType, B extends ZodType>(spec: RouteSpec<P, Q, B>) => spec;

type Infer<T> = [T] extends [ZodType] ? z.output<T> : undefined;

export interface RouteInput<S extends RouteSpec> {
  params: Infer<NonNullable<S['params']>>;
  query: Infer<NonNullable<S['query']>>;
  body: Infer<NonNullable<S['body']>>;
  account: AccountSummary;
}

export type RouteHandler<S extends RouteSpec> = (input: RouteInput<S>, req: Request) => Promise<unknown>;

/** A handler's answer with the spec's `alsoSucceeds` status instead of its usual one. */
export class WithStatus {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** The paths `mount` put on each router, as patterns: what `enteredFor` lets in. */
const mountedPaths = new WeakMap<Router, string[]>();

/** Mounts a handler for a spec: checks the account (unless public), validates, runs, renders the success status. */
export function mount<S extends RouteSpec>(router: Router, spec: S, handler: RouteHandler<S>): void {
  const expressPath = spec.path.replace(/\{(\w+)\}/g, ':$1');
  const paths = mountedPaths.get(router) ?? [];
  paths.push(pathPattern(spec.path));
  mountedPaths.set(router, paths);
  router[spec.method](expressPath, async (req: Request, res: Response) => {
    const account = res.locals.account as AccountSummary | undefined;
    if (spec.auth !== false && !account) throw unauthorized();
    const input = {
      params: parsePart(spec.params, req.params, 'path'),
      query: parsePart(spec.query, req.query, 'query'),
      body: spec.body ? parsePart(spec.body, bodyOf(req), 'body') : undefined,
      account,
    } as RouteInput<S>;
    const result = await handler(input, req);
    if (result instanceof WithStatus) return void res.status(result.status).json(result.body);
    res.status(spec.success.status);
    if (spec.success.status === 204) return void res.end();
    if (result instanceof JsonBody) return result.send(req, res);
    res.json(result);
  });
}

/**
 * `router`, entered only by requests for a path mounted on it: the others go by without its entry and the matching of
 * each of its routes, which cost every request that passes through (4–6 % of the CPU of a mirror read behind four
 * routers, bench/results-mirror.txt, N3). Matched as Express does: any case, an optional trailing slash. A router with
 * anything but `mount`'s routes is entered by every request. The gate follows the router's stack: a route or layer
 * added after wrapping is seen at the next request.
 */
export function enteredFor(router: Router): RequestHandler {
  let gate = gateOf(router);
  return (req, res, next) => {
    if (gate.layers !== router.stack.length) gate = gateOf(router);
    if (!gate.pattern || gate.pattern.test(req.path)) return router(req, res, next);
    next();
  };
}

/** The pattern of the paths mounted on `router`; none when its stack holds anything else. */
function gateOf(router: Router): { layers: number; pattern?: RegExp } {
  const paths = mountedPaths.get(router);
  const layers = router.stack.length;
  if (!paths || paths.length !== layers) return { layers };
  return { layers, pattern: new RegExp(`^(?:${paths.join('|')})/?$`, 'i') };
}

/** An OpenAPI path as a pattern: each `{param}` one segment, the rest literal (no path-to-regexp syntax is used). */
const pathPattern = (path: string) =>
  path
    .split(/\{\w+\}/)
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');

function parsePart(schema: ZodType | undefined, value: unknown, location: string): unknown {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const where = [location, ...issue.path.map(String)].join('.');
    return `${where}: ${issue.message}`;
  });
  throw invalidRequest(problems.join('; '));
}

function bodyOf(req: Request): unknown {
  if (req.body !== undefined) return req.body;
  const hasContent = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasContent) throw invalidRequest('The request body must be JSON (Content-Type: application/json)');
  return {};
}
