/** Scopes any user may grant (airtable-oauth.md §4.1); an OAuth integration may request these unless registered otherwise. */
export const BASIC_SCOPES = [
  'data.records:read',
  'data.records:write',
  'data.recordComments:read',
  'data.recordComments:write',
  'schema.bases:read',
  'schema.bases:write',
  'webhook:manage',
  'block:manage',
  'user.email:read',
  'workspacesAndBases:read',
] as const;

/** Enterprise scopes: an integration registered with them may request them; no sandbox route needs one. */
export const ENTERPRISE_SCOPES = [
  'enterprise.groups:read',
  'workspacesAndBases:write',
  'workspacesAndBases.shares:manage',
  'enterprise.scim.usersAndGroups:manage',
  'enterprise.auditLogs:read',
  'enterprise.changeEvents:read',
  'enterprise.exports:manage',
  'enterprise.account:read',
  'enterprise.account:write',
  'enterprise.user:read',
  'enterprise.user:write',
  'enterprise.groups:manage',
  'workspacesAndBases:manage',
  'hyperDB.records:read',
  'hyperDB.records:write',
] as const;

export const KNOWN_SCOPES: readonly string[] = [...BASIC_SCOPES, ...ENTERPRISE_SCOPES];

export function isKnownScope(scope: string): boolean {
  return KNOWN_SCOPES.includes(scope);
}

/** What a token may do: every scope (the PATs `_control/users` makes, and the admin token) or the listed ones. */
export type ScopeGrant = 'all' | readonly string[];

export function grants(scopes: ScopeGrant, scope: string): boolean {
  return scopes === 'all' || scopes.includes(scope);
}

/** The scopes a webhook's `dataTypes` need on top of `webhook:manage`, to create it or read its payloads (§4.2). */
export function scopesForDataTypes(dataTypes: readonly string[]): string[] {
  const needed = new Set<string>();
  for (const type of dataTypes) {
    if (type === 'tableData') needed.add('data.records:read');
    if (type === 'tableFields' || type === 'tableMetadata') needed.add('schema.bases:read');
  }
  return [...needed];
}
