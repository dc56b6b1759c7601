import type { ConnectionView } from './connection.service.js';

/** A connection as JSON: the REST answer of GET /connection, and what `basewatch connection show --json` prints. */
export const toConnectionResponse = (c: ConnectionView) => ({
  kind: c.kind,
  upstreamUserId: c.upstreamUserId,
  email: c.email,
  scopes: c.scopes,
  status: c.status,
  connectedAt: c.connectedAt.toISOString(),
  lastError: c.lastError,
});
