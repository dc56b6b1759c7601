import { unauthorized } from '../errors.js';
import type { AccountSummary } from '../services/account.service.js';
import type { Services } from '../services.js';
import { createLoaders, type Loaders } from './loaders.js';
import type { EventHub } from './support/event-hub.js';

/** Per operation: the caller and the DataLoaders that batch its reads. */
export interface GraphqlContext {
  services: Services;
  /** Unset only for introspection let through without a key (GRAPHQL_INTROSPECTION=public). */
  account?: AccountSummary;
  loaders: Loaders;
  /** What subscriptions listen to. */
  events: EventHub;
  /**
   * Over HTTP only: gives the calling browser the binding of the OAuth flow it starts (a cookie on this response).
   * A socket has no response to carry it.
   */
  bindOAuthBrowser?: (browserBinding: string) => void;
}

export function createContext(services: Services, events: EventHub, account: AccountSummary | undefined): GraphqlContext {
  return { services, account, events, loaders: createLoaders(services, account) };
}

/** The caller's account; `unauthorized` when the operation has none. */
export function requireAccount(context: GraphqlContext): AccountSummary {
  if (!context.account) throw unauthorized();
  return context.account;
}
