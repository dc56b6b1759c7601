import { z } from './zod.js';
import { defineRoute } from './http/route.js';
import { apiCallInput } from '../services/usage-insight/api-call.input.js';

const Calls = z.number().int().min(0);

const ApiCallUsageBody = z
  .strictObject({
    month: z.string().openapi({ example: '2026-11', description: 'YYYY-MM, UTC' }),
    total: Calls.openapi({ description: 'requests sent with the account’s upstream user this month, retries and 429s included' }),
    projected: Calls.openapi({
      description:
        'this month: the total at the pace so far by the month’s end (total × month length ÷ time elapsed, at least one day); a past month: its total',
    }),
    byPurpose: z
      .strictObject({
        count: Calls.openapi({ description: 'usage counts' }),
        audit: Calls.openapi({ description: 'reading changes, writing the Changes table, checking monitoring configs' }),
        webhooks: Calls.openapi({ description: 'creating, refreshing, listing and deleting upstream webhooks' }),
        helpers: Calls.openapi({ description: 'everything else: base and table look-ups, connection checks' }),
      })
      .openapi('ApiCallsByPurpose'),
    byBase: z
      .array(z.strictObject({ baseId: z.string(), calls: Calls }).openapi('ApiCallsOfBase'))
      .openapi({ description: 'requests to each base, most first; requests outside a base (listing bases) are only in total' }),
  })
  .openapi('ApiCallUsage');

export const apiCallRoutes = {
  usage: defineRoute({
    method: 'get',
    path: '/usage/api-calls',
    operationId: 'getApiCallUsage',
    summary: 'Upstream API calls of a month, with a projection (extension)',
    description:
      'Every request sent to the upstream with the account’s upstream user (its connection’s, or the shared token’s when it has none), whichever account or job sent it, as the platform counts them: per month (UTC), purpose and base. A month still to come is a 400.',
    tag: 'Usage',
    query: apiCallInput.usage,
    success: { status: 200, description: 'The month’s calls', schema: ApiCallUsageBody },
    errors: [400, 401, 429],
  }),
};
