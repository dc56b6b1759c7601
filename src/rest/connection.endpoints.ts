import { connectionInput } from '../services/connections/connection.input.js';
import { oauthFlowInput } from '../services/connections/oauth-flow.input.js';
import { OAUTH_CALLBACK_PATH } from '../http/oauth-callback-path.js';
import { defineRoute } from './http/route.js';
import { Timestamp } from './schemas.js';
import { z } from './zod.js';

const tag = 'Upstream connection';

export const ConnectionBody = z
  .strictObject({
    kind: z.enum(['oauth', 'token']).openapi({ description: 'oauth: an OAuth 2.0 grant; token: a personal access token' }),
    upstreamUserId: z.string().openapi({ description: 'the upstream user (usr…) the connection acts as' }),
    email: z.string().nullable().openapi({ description: 'that user’s e-mail, when the upstream tells it' }),
    scopes: z.array(z.string()).nullable().openapi({ description: 'granted scopes (OAuth); null for personal access tokens' }),
    status: z.enum(['active', 'needs_reauth']).openapi({
      description: 'needs_reauth: the upstream refused the grant or token; scheduled work of the account pauses until it reconnects',
    }),
    connectedAt: Timestamp,
    lastError: z.string().nullable(),
  })
  .openapi('UpstreamConnection');

const ConnectionResponse = z.strictObject({ connection: ConnectionBody });

export const connectionRoutes = {
  get: defineRoute({
    method: 'get',
    path: '/connection',
    operationId: 'getConnection',
    summary: 'The account’s upstream connection (extension)',
    tag,
    success: {
      status: 200,
      description: 'The connection, or null when the account has none',
      schema: z.strictObject({ connection: ConnectionBody.nullable() }),
    },
    errors: [],
  }),
  setToken: defineRoute({
    method: 'put',
    path: '/connection',
    operationId: 'setConnectionToken',
    summary: 'Connect with a personal access token (extension)',
    description:
      'The token is checked with the upstream’s whoami before it is stored (sealed under SECRET_KEY; never shown again). A refused token is a 400 and stores nothing; so is, at once and without asking the upstream, one that cannot be a bearer token (characters other than letters, digits and `-._~+/`, then `=` padding). Replaces any earlier connection of the account.',
    tag,
    body: connectionInput.setToken,
    success: { status: 200, description: 'The stored connection', schema: ConnectionResponse },
    errors: [502],
  }),
  remove: defineRoute({
    method: 'delete',
    path: '/connection',
    operationId: 'deleteConnection',
    summary: 'Forget the account’s upstream connection (extension)',
    tag,
    success: { status: 204, description: 'Removed (also when there was none)' },
    errors: [],
  }),
  startOAuth: defineRoute({
    method: 'post',
    path: '/connection/oauth/start',
    operationId: 'startConnectionOAuth',
    summary: 'Start connecting with OAuth 2.0 + PKCE (extension)',
    description:
      'Returns the upstream’s authorization URL to open in a browser. Its `state` is bound to this account and to the client that called: the answer sets the `basewatch_oauth` cookie (HttpOnly, SameSite=Lax, sent only to the callback), so open the URL in the browser that made this call (the web application does). Single use, valid for 10 minutes; the upstream sends the browser back to `GET /oauth/airtable/callback`. 400 when OAuth is not configured (AIRTABLE_OAUTH_CLIENT_ID).',
    tag,
    success: { status: 201, description: 'Where to send the browser', schema: z.strictObject({ authorizeUrl: z.string() }) },
    errors: [],
  }),
  callback: defineRoute({
    method: 'get',
    path: OAUTH_CALLBACK_PATH,
    operationId: 'completeConnectionOAuth',
    summary: 'The upstream’s redirect at the end of authorization (extension)',
    description:
      'Authenticated by its single-use `state` and the `basewatch_oauth` cookie of the browser that started the flow, not by a key. Exchanges the code (with the PKCE verifier) and stores the connection of the account that started the flow. A missing or other cookie (another browser), a wrong, used or expired state, an `error` from the upstream, or a code the upstream refuses: 400, nothing stored.',
    tag,
    auth: false,
    query: oauthFlowInput.callback,
    success: { status: 200, description: 'The stored connection', schema: ConnectionResponse },
    errors: [502],
  }),
};
