import type { ConnectionView } from '../services/connections/connection.service.js';

export const toConnectionResponse = (c: ConnectionView) => ({
  kind: c.kind,
  upstreamUserId: c.upstreamUserId,
  email: c.email,
  scopes: c.scopes,
  status: c.status,
  connectedAt: c.connectedAt.toISOString(),
  lastError: c.lastError,
});
