import type { Request } from 'express';
import { integrationOwner, personalOwner, type WebhookOwner } from '../webhooks/webhook-owner.js';
import type { ScopeGrant } from './scopes.js';
import type { SandboxUser } from './user-directory.js';

/** Who a request's bearer token speaks for, and what it was granted. */
export interface Principal {
  kind: 'pat' | 'oauth';
  /** The sandbox's configured token (SANDBOX_TOKEN): the demo user's PAT, and the only bearer of `/_control/*`. */
  admin: boolean;
  user: SandboxUser;
  scopes: ScopeGrant;
  /** The bases granted to the token ('all': every base the user can see, now or later). */
  baseIds: 'all' | readonly string[];
  /** OAuth only: the integration. */
  clientId?: string;
}

const principals = new WeakMap<Request, Principal>();

export function setPrincipal(req: Request, principal: Principal): void {
  principals.set(req, principal);
}

/** Set by the auth middleware on every request past it. */
export function principalOf(req: Request): Principal | undefined {
  return principals.get(req);
}

/** Who owns the webhooks a token creates and sees: the integration + user for OAuth, the user for PATs. */
export function webhookOwnerOf(principal: Principal): WebhookOwner {
  return principal.kind === 'oauth' ? integrationOwner(principal.clientId!, principal.user.id) : personalOwner(principal.user.id);
}
