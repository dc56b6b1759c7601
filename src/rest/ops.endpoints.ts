import { z } from './zod.js';
import { defineRoute } from './http/route.js';

const tag = 'Operations';

export const opsRoutes = {
  healthz: defineRoute({
    method: 'get',
    path: '/healthz',
    operationId: 'healthz',
    summary: 'Liveness',
    tag,
    auth: false,
    success: { status: 200, description: 'The process is up', schema: z.strictObject({ status: z.literal('ok') }) },
    errors: [],
  }),
  readyz: defineRoute({
    method: 'get',
    path: '/readyz',
    operationId: 'readyz',
    summary: 'Readiness: database reachable and not shutting down',
    tag,
    auth: false,
    success: { status: 200, description: 'Ready for traffic', schema: z.strictObject({ status: z.literal('ready') }) },
    errors: [503],
  }),
  openapi: defineRoute({
    method: 'get',
    path: '/openapi.json',
    operationId: 'openapi',
    summary: 'This OpenAPI 3.0 document',
    tag,
    auth: false,
    success: { status: 200, description: 'The document', schema: z.record(z.string(), z.unknown()) },
    errors: [],
  }),
};
