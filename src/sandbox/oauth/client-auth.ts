import { tokenError } from './oauth-errors.js';
import { secretMatches, type OAuthClients, type StoredOAuthClient } from './oauth-clients.js';

/**
 * Client authentication on the token route (airtable-oauth.md §1.2): an integration with a secret must send HTTP
 * Basic base64(client_id:client_secret); one without must send no Authorization header and its client_id in the
 * body. A secret in the body is refused (not a documented alternative). Every failure is 401 invalid_client.
 */
export function authenticateClient(header: string | undefined, params: URLSearchParams, clients: OAuthClients): StoredOAuthClient {
  if (params.has('client_secret')) throw invalidClient('Send the client secret in an HTTP Basic Authorization header, not in the body.');
  const bodyClientId = params.get('client_id') ?? undefined;
  if (header !== undefined) {
    const basic = parseBasic(header);
    if (!basic) throw invalidClient('The Authorization header must be HTTP Basic with base64(client_id:client_secret).');
    if (bodyClientId !== undefined && bodyClientId !== basic.clientId) {
      throw invalidClient('The client_id in the body differs from the one in the Authorization header.');
    }
    const client = clients.get(basic.clientId);
    if (!client) throw invalidClient('Unknown client_id.');
    if (client.secretHash === null) {
      throw invalidClient('This integration has no client secret: send no Authorization header, and client_id in the body.');
    }
    if (!secretMatches(client, basic.secret)) throw invalidClient('Wrong client secret.');
    return client;
  }
  if (bodyClientId === undefined) throw invalidClient('Client authentication failed: no Authorization header and no client_id.');
  const client = clients.get(bodyClientId);
  if (!client) throw invalidClient('Unknown client_id.');
  if (client.secretHash !== null) throw invalidClient('This integration has a client secret: authenticate with HTTP Basic.');
  return client;
}

/** RFC 6749 §2.3.1: id and secret are form-encoded before they are joined and base64-encoded. */
function parseBasic(header: string): { clientId: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/_-]+=*)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  const clientId = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  return clientId === undefined || secret === undefined ? undefined : { clientId, secret };
}

function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined; // a malformed escape
  }
}

function invalidClient(description: string) {
  return tokenError('invalid_client', description);
}
