import { unauthorized } from '../errors.js';
import type { Splices } from '../graphql/execution/splices.js';
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
  /** Set by the HTTP handler: JSON the executor splices into the response as bytes. Shared by Apollo's copies of the context. */
  splices?: Splices;
  /** What decides whether the response may be reused (graphql/response-cache.ts). Shared by Apollo's copies of the context. */
  reuse: ReuseFacts;
  /**
   * Over HTTP only: gives the calling browser the binding of the OAuth flow it starts (a cookie on this response).
   * A socket has no response to carry it.
   */
  bindOAuthBrowser?: (browserBinding: string) => void;
}

export interface ReuseFacts {
  /**
   * Set once the operation used a service that answers from outside the database (the upstream, the scheduler's
   * store, the clock): its response then cannot be reused on the database version alone.
   */
  readsOutsideDatabase: boolean;
  /** Set when the operation was a query that answered without errors. */
  answeredQuery: boolean;
}

/**
 * The services whose reads come from the database alone. Any other service an operation touches, through a resolver
 * or a loader, marks it as reading outside: new services are outside until listed here.
 */
const DATABASE_SERVICES: ReadonlySet<string> = new Set<keyof Services>([
  'accounts',
  'usageBases',
  'usageLimits',
  'usageAlerts',
  'usageCounting',
  'snapshots',
  'monitoringConfigs',
  'changeQueries',
  'webhooks',
  'webhookDeliveries',
]);

export function createContext(services: Services, events: EventHub, account: AccountSummary | undefined): GraphqlContext {
  const reuse: ReuseFacts = { readsOutsideDatabase: false, answeredQuery: false };
  const context = { account, events, reuse } as GraphqlContext;
  context.services = new Proxy(services, {
    get(target, property, receiver) {
      if (typeof property !== 'string' || !DATABASE_SERVICES.has(property)) reuse.readsOutsideDatabase = true;
      return Reflect.get(target, property, receiver);
    },
  });
  context.loaders = createLoaders(context.services, account);
  return context;
}

/** The caller's account; `unauthorized` when the operation has none. */
export function requireAccount(context: GraphqlContext): AccountSummary {
  if (!context.account) throw unauthorized();
  return context.account;
}
