import { airtableError, invalidRequest } from '../sandbox-errors.js';

export const webhookNotFound = (webhookId: string) => airtableError(404, 'NOT_FOUND', `Could not find webhook ${webhookId}`);

/** The type was seen from the live API in public code; the message is an approximation. */
export const tooManyWebhooks = (max: number) =>
  airtableError(422, 'TOO_MANY_WEBHOOKS_IN_BASE', `Cannot create webhook: this base already has the maximum of ${max} webhooks`);

/** Airtable's limit of 2 webhooks per OAuth integration per base (WHC); the type and message are assumptions. */
export const tooManyIntegrationWebhooks = (max: number) =>
  airtableError(
    422,
    'TOO_MANY_WEBHOOKS_BY_OAUTH_INTEGRATION_IN_BASE',
    `Cannot create webhook: this OAuth integration already has the maximum of ${max} webhooks in this base`,
  );

export const invalidSpecification = (reason: string) => invalidRequest(`Invalid request: ${reason}`);

export const webhookNotRefreshable = () =>
  invalidRequest('Invalid request: only an active webhook (not expired, not in an error state) can be refreshed.');
