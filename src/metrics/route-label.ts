import type { Request, Response } from 'express';
import { allRoutes } from '../rest/openapi.js';

/** Which of the service's faces answered: the APIs, the web application, operator pages, or the sandbox upstream. */
export type Api = 'rest' | 'graphql' | 'web' | 'ops' | 'admin' | 'sandbox';

export interface RouteLabel {
  api: Api;
  /** A route template (`/usage/bases/:id/snapshots`) or a mount point, never a raw path: labels stay few. */
  route: string;
}

interface Mount {
  prefix: string;
  /** Only the path itself, not what lies below it. */
  exact?: true;
  label: RouteLabel;
}

/** Mounted apps and static files: one label each, whatever lies below (their inner routes are not ours to list). */
const MOUNTS: Mount[] = [
  { prefix: '/graphql', exact: true, label: { api: 'graphql', route: '/graphql' } },
  { prefix: '/graphql/ide', label: { api: 'graphql', route: '/graphql/ide' } },
  { prefix: '/admin/jobs', label: { api: 'admin', route: '/admin/jobs' } },
  { prefix: '/admin', label: { api: 'admin', route: '/admin' } },
  { prefix: '/metrics', exact: true, label: { api: 'ops', route: '/metrics' } },
  { prefix: '/docs', label: { api: 'ops', route: '/docs' } },
  { prefix: '/sandbox/airtable', label: { api: 'sandbox', route: '/sandbox/airtable' } },
  { prefix: '/assets', label: { api: 'web', route: '/assets' } },
];

const WEB_PAGE: RouteLabel = { api: 'web', route: '/*' };
const UNMATCHED: RouteLabel = { api: 'rest', route: 'unmatched' };

/** Every documented operation's label, by its Express path (what `req.route.path` holds once it matched). */
const BY_EXPRESS_PATH = new Map<string, RouteLabel>(
  allRoutes.map((spec) => {
    const route = spec.path.replace(/\{(\w+)\}/g, ':$1');
    return [route, { api: spec.tag === 'Operations' ? 'ops' : 'rest', route }];
  }),
);

/** The same operations by pattern, for requests answered before routing (CORS preflights, 400/413 bodies, 403 CSRF, 429 budget). */
const BY_PATTERN = [...BY_EXPRESS_PATH.values()].map((label) => ({
  pattern: new RegExp(`^${label.route.replace(/:\w+/g, '[^/]+')}/?$`),
  label,
}));

/** The label of a finished request. */
export function routeLabelOf(req: Request, res: Response): RouteLabel {
  const url = req.originalUrl;
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  for (const mount of MOUNTS) {
    if (path === mount.prefix || (!mount.exact && path.startsWith(`${mount.prefix}/`))) return mount.label;
  }
  const matched: unknown = req.route?.path;
  if (typeof matched === 'string') return BY_EXPRESS_PATH.get(matched) ?? { api: 'rest', route: matched };
  for (const { pattern, label } of BY_PATTERN) if (pattern.test(path)) return label;
  // The web application's page answers any other browser path (web.routes.ts) and is the only HTML answer left.
  if (String(res.getHeader('content-type') ?? '').startsWith('text/html')) return WEB_PAGE;
  return UNMATCHED;
}
