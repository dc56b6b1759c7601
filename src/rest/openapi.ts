import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import type { RouteSpec } from './http/route.js';
import { errorStatusesOf } from './http/statuses.js';
import { airtableRoutes } from './airtable.endpoints.js';
import { apiCallRoutes } from './api-calls.endpoints.js';
import { authRoutes } from './auth.endpoints.js';
import { changeRoutes } from './changes.endpoints.js';
import { connectionRoutes } from './connection.endpoints.js';
import { opsRoutes } from './ops.endpoints.js';
import { ErrorBody } from './schemas.js';
import { mirrorRoutes } from './mirror.endpoints.js';
import { monitoringRoutes } from './monitoring.endpoints.js';
import { withStockNullables } from './openapi-nullable.js';
import { usageRoutes } from './usage.endpoints.js';
import { usageInsightRoutes } from './usage-insight.endpoints.js';
import { webhookRoutes } from './webhooks.endpoints.js';

export const allRoutes: RouteSpec[] = [
  webhookRoutes,
  usageRoutes,
  usageInsightRoutes,
  apiCallRoutes,
  airtableRoutes,
  monitoringRoutes,
  mirrorRoutes,
  changeRoutes,
  connectionRoutes,
  authRoutes,
  opsRoutes,
].flatMap((group) => Object.values(group));

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'invalid_request: malformed request, path or JSON body (not UTF-8 included), unsupported body encoding, wrong type, out-of-range value (an over-long id included), bad date, timezone or cursor, unknown body field',
  401: 'unauthorized: Authorization missing, malformed, unknown or revoked key',
  403: 'csrf_failed: a write authenticated by the session cookie without its X-CSRF-Token; forbidden: the account’s upstream connection lacks the scope or permission the work needs (a restore without write access)',
  404: 'not_found: no such id for this account',
  408: 'invalid_request: the request took too long to arrive',
  409: 'conflict: a count of this base is running, or the resource exists already; upstream_not_connected: the work needs the account’s upstream connection and it has none, or it needs re-authorisation',
  413: 'payload_too_large: request body over 1 MiB',
  429: 'rate_limited: the account (its keys and sessions together) exceeded its request budget; see Retry-After',
  431: 'invalid_request: the request line or headers are too long',
  500: 'internal: unexpected failure',
  502: 'upstream_error: the upstream platform failed or refused after retries',
  503: 'unavailable: starting, shutting down or not ready',
};

/** The OpenAPI 3.0 document of every REST operation, printed from the same schemas the routers validate with. */
export function buildOpenApiDocument() {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key `sk_…`, as `Authorization: Bearer sk_…` or the bare `Authorization: sk_…`.',
  });
  const cookie = registry.registerComponent('securitySchemes', 'sessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: 'basewatch_session',
    description: 'The web application’s session (POST /auth/sign-in); its writes also need `X-CSRF-Token`.',
  });
  registry.register('Error', ErrorBody);
  for (const route of allRoutes) {
    const responses: Record<string, object> = {
      [route.success.status]: route.success.schema
        ? { description: route.success.description, content: { 'application/json': { schema: route.success.schema } } }
        : { description: route.success.description },
      ...(route.alsoSucceeds && route.success.schema
        ? {
            [route.alsoSucceeds.status]: {
              description: route.alsoSucceeds.description,
              content: { 'application/json': { schema: route.success.schema } },
            },
          }
        : {}),
    };
    if (route.conditional) {
      responses[304] = { description: 'Not modified: If-None-Match matched the ETag of the current response' };
    }
    for (const status of errorStatusesOf(route)) {
      responses[status] = { description: ERROR_DESCRIPTIONS[status], content: { 'application/json': { schema: ErrorBody } } };
    }
    registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      tags: [route.tag],
      security: route.auth === false ? [] : [{ [bearer.name]: [] }, { [cookie.name]: [] }],
      request: {
        params: route.params as never,
        query: route.query as never,
        body: route.body ? { required: route.method !== 'patch', content: { 'application/json': { schema: route.body } } } : undefined,
      },
      responses,
    });
  }
  const document = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'basewatch',
      version: '1.0.0',
      description: 'Usage tracking, audit log and webhook forwarding for Airtable bases. Every failure body is `{ message, code }`.',
    },
    servers: [{ url: '/' }],
  });
  return withStockNullables(document);
}
