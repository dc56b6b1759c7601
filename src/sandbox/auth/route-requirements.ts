import type { PermissionLevel } from './user-directory.js';

/** What a Web API route needs (airtable-oauth.md §4.2): a base the token sees at a level, and a scope. */
export interface RouteRequirement {
  baseId?: string;
  /** The least collaborator level on the base. */
  level?: PermissionLevel;
  scope?: string;
}

type Rule = [methods: readonly string[], pattern: RegExp, scope: string, level: PermissionLevel | undefined];

const READ = ['GET', 'HEAD'];
const WRITE = ['POST', 'PATCH', 'PUT', 'DELETE'];
const ID = '([^/]+)';
/** `/v0/meta/…` and `/v0/bases/…` are never records routes. */
const RECORDS_BASE = '(?!(?:meta|bases)/)([^/]+)';

const RULES: readonly Rule[] = [
  [READ, /^\/v0\/meta\/bases$/, 'schema.bases:read', undefined],
  [READ, new RegExp(`^/v0/meta/bases/${ID}/tables$`), 'schema.bases:read', 'read'],
  [['POST'], new RegExp(`^/v0/meta/bases/${ID}/tables$`), 'schema.bases:write', 'create'],
  [['PATCH', 'DELETE'], new RegExp(`^/v0/meta/bases/${ID}/tables/[^/]+$`), 'schema.bases:write', 'create'],
  [['POST'], new RegExp(`^/v0/meta/bases/${ID}/tables/[^/]+/fields$`), 'schema.bases:write', 'create'],
  [['PATCH', 'DELETE'], new RegExp(`^/v0/meta/bases/${ID}/tables/[^/]+/fields/[^/]+$`), 'schema.bases:write', 'create'],
  [READ, new RegExp(`^/v0/bases/${ID}/webhooks$`), 'webhook:manage', 'read'],
  [['POST'], new RegExp(`^/v0/bases/${ID}/webhooks$`), 'webhook:manage', 'create'],
  [['DELETE'], new RegExp(`^/v0/bases/${ID}/webhooks/[^/]+$`), 'webhook:manage', 'create'],
  [['POST'], new RegExp(`^/v0/bases/${ID}/webhooks/[^/]+/(?:refresh|enableNotifications)$`), 'webhook:manage', 'create'],
  [READ, new RegExp(`^/v0/bases/${ID}/webhooks/[^/]+/payloads$`), 'webhook:manage', 'read'],
  [['POST'], new RegExp(`^/v0/${RECORDS_BASE}/[^/]+/listRecords$`), 'data.records:read', 'read'],
  [READ, new RegExp(`^/v0/${RECORDS_BASE}/[^/]+(?:/[^/]+)?$`), 'data.records:read', 'read'],
  [WRITE, new RegExp(`^/v0/${RECORDS_BASE}/[^/]+(?:/[^/]+)?$`), 'data.records:write', 'edit'],
];

/**
 * The requirement of a route the sandbox serves; undefined for whoami (no scope) and for paths no route serves
 * (they answer 404 as before). The path is relative to the sandbox's mount point.
 */
export function requirementOf(method: string, path: string): RouteRequirement | undefined {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  for (const [methods, pattern, scope, level] of RULES) {
    if (!methods.includes(method)) continue;
    const match = pattern.exec(trimmed);
    if (match) return { scope, ...(match[1] === undefined ? {} : { baseId: decodeSegment(match[1]), level }) };
  }
  return undefined;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
