import { SANDBOX_API_USER } from '../actor.js';

/**
 * Who created a webhook, and so who sees it: an OAuth integration acting for a user sees only its own webhooks
 * (airtable-oauth.md §5) and may have at most 2 per base; PATs see the webhooks made by PATs of the same user.
 */
export interface WebhookOwner {
  key: string;
  /** An OAuth integration: held to MAX_WEBHOOKS_PER_INTEGRATION per base. */
  integration: boolean;
}

export function personalOwner(userId: string): WebhookOwner {
  return { key: `user:${userId}`, integration: false };
}

export function integrationOwner(clientId: string, userId: string): WebhookOwner {
  return { key: `oauth:${clientId}:${userId}`, integration: true };
}

/** Webhooks saved before owners existed, and those made through `sandbox.webhooks` without one: the demo user's. */
export const DEFAULT_OWNER_KEY = personalOwner(SANDBOX_API_USER.id).key;
