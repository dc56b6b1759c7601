import { EventEmitter } from 'node:events';
import type { Router } from 'express';
import { SandboxAuth, type SandboxOAuthOptions } from './auth/sandbox-auth.js';
import { seedDemo } from './demo-seed.js';
import { FaultControl, type FaultSettings } from './fault-control.js';
import { createIdGenerator } from './id-generator.js';
import { IteratorIds, iteratorKeyFromSeed } from './iterator-ids.js';
import { IteratorRegistry } from './iterator-registry.js';
import { openSandboxState, type SandboxLogger } from './persistence/sandbox-persistence.js';
import { createRandom, hashSeed } from './prng.js';
import { parseClientConfig } from './oauth/oauth-clients.js';
import { RateLimiter } from './rate-limiter.js';
import { createSandboxRouter } from './sandbox.router.js';
import { SandboxStats } from './sandbox-stats.js';
import { SandboxStore } from './sandbox-store.js';
import type { SandboxChange } from './sandbox-change.types.js';
import { SandboxWebhooks } from './webhooks/webhook-registry.js';
import type { SandboxWebhookOptions } from './webhooks/webhook.types.js';

export { CHANGE_SOURCES } from './sandbox-change.types.js';
export type * from './sandbox-change.types.js';
export type * from './sandbox.types.js';
export type { BaseSummary, StorageTotals, TableSummary } from './base-summary.js';
export type { AttachmentResponse, StoredAttachment } from './attachments.js';
export { DEMO_BASE_NAMES, DEMO_TABLES, demoRecordCount } from './demo-seed.js';
export { DEFAULT_ACTOR, SANDBOX_API_USER, userFromEmail } from './actor.js';
export { FaultControl, type FaultSettings } from './fault-control.js';
export { SandboxStats, type BaseTraffic } from './sandbox-stats.js';
export { SandboxStore, type RecordUpdateOptions, type RecordWriteOptions } from './sandbox-store.js';
export { SandboxError } from './sandbox-errors.js';
export {
  MAX_PAYLOADS_PER_PAGE,
  MAX_WEBHOOKS_PER_BASE,
  SandboxWebhooks,
  WEBHOOK_LIFETIME_MS,
  WEBHOOK_RETENTION_MS,
} from './webhooks/webhook-registry.js';
export type { SandboxWebhookOptions } from './webhooks/webhook.types.js';
export type { SandboxLogger } from './persistence/sandbox-persistence.js';
export {
  DEMO_USER,
  SandboxAuth,
  type ConsentOverride,
  type SandboxOAuthOptions,
  type TokenSelector,
  type VisibleBase,
} from './auth/sandbox-auth.js';
export type { PermissionLevel, SandboxUser } from './auth/user-directory.js';
export { BASIC_SCOPES } from './auth/scopes.js';
export type { OAuthClientConfig } from './oauth/oauth-clients.js';
export { ACCESS_TOKEN_LIFETIME_MS, CODE_LIFETIME_MS, REFRESH_TOKEN_LIFETIME_MS, type TokenResponse } from './oauth/oauth-grants.js';
export { MAX_WEBHOOKS_PER_INTEGRATION } from './webhooks/webhook-registry.js';
export { automationIdFor, formPageIdFor, formViewIdFor } from './webhooks/action-metadata.js';

export interface SandboxOptions {
  /**
   * The admin token: the demo user's PAT (every scope, every base the demo user can see) and the only bearer
   * accepted by `/_control/*`.
   */
  token: string;
  /** Deterministic demo seed (default scale 1); false starts empty. */
  demo?: { scale?: number } | false;
  /** Per base; default 5. */
  rateLimitPerSecond?: number;
  /** Per user across all of the user's tokens (the admin token: on list-bases only); default 50, 0 = off. */
  userRateLimitPerSecond?: number;
  /** How long a base is refused after a 429; default 30,000. */
  lockoutMs?: number;
  /** List-records iterator lifetime, measured from its last use; default 300,000. */
  iteratorTtlMs?: number;
  /** Seeds every id and the fault draw, so the demo is identical on every start. */
  seed?: number;
  /**
   * The clock (ms since the epoch) of webhooks (expiry, retention, payload timestamps) and tokens (OAuth codes,
   * access and refresh tokens, the refresh grace window); default Date.now.
   */
  now?: () => number;
  /** OAuth integrations (more can be registered with `POST _control/oauth/clients`) and the refresh grace window. */
  oauth?: SandboxOAuthOptions;
  /** Notification ping timing; the defaults are the platform's. */
  webhooks?: SandboxWebhookOptions;
  /**
   * Keeps the state (bases, records, webhooks, id streams) in this JSON file: loaded instead of seeding when it
   * exists, saved `stateSaveDelayMs` after changes and by close(). Default: memory only.
   */
  stateFile?: string;
  /** Default 1,000. */
  stateSaveDelayMs?: number;
  /** Where state-file problems are reported; default: the console. */
  logger?: SandboxLogger;
}

export interface Sandbox {
  /** Mount with app.use('/sandbox/airtable', sandbox.router); parses its own JSON and renders Airtable error bodies. */
  router: Router;
  store: SandboxStore;
  faults: FaultControl;
  stats: SandboxStats;
  /** Emits 'change' with a SandboxChange after every mutation. */
  events: EventEmitter;
  /** The Webhooks API's state: webhooks, payloads and notification pings. */
  webhooks: SandboxWebhooks;
  /** Users, their bases and tokens, OAuth integrations and grants (what `/_control/users…` and `/oauth2/v1/*` use). */
  auth: SandboxAuth;
  /**
   * Cancels pending and in-flight notification pings (their timers never hold the process open anyway) and writes
   * the state file when changes are pending.
   */
  close(): void;
}

export const DEFAULT_SANDBOX_SEED = 20_240_601;

export function createSandbox(options: SandboxOptions): Sandbox {
  if (!options.token) throw new Error('The sandbox needs a non-empty token');
  const seed = options.seed ?? DEFAULT_SANDBOX_SEED;
  const events = new EventEmitter();
  const persistence = openSandboxState(options.stateFile, options.stateSaveDelayMs ?? 1_000, options.logger ?? consoleLogger);
  const changed = () => persistence.saver?.changed();
  const saved = persistence.saved;
  const store = new SandboxStore(seed, events, { saved: saved?.store, onSeeded: changed });
  if (!saved && options.demo !== false) seedDemo(store, { seed, scale: checkScale(options.demo?.scale ?? 1) });
  const stats = new SandboxStats();
  const limiter = new RateLimiter();
  const faults: FaultControl = new FaultControl(defaultFaults(options), seed, {
    onReset: () => limiter.clear(),
    expireIterators: (): number => iterators.expireAll(),
  });
  const iteratorRandom = createRandom(saved?.iterators.random ?? hashSeed(seed, 'iterators'));
  const iteratorIds = createIdGenerator(iteratorRandom);
  const iteratorKey = saved?.iterators.key ?? iteratorKeyFromSeed(seed);
  const iterators: IteratorRegistry = new IteratorRegistry(new IteratorIds(iteratorIds, iteratorKey), () => faults.get().iteratorTtlMs);
  const now = options.now ?? Date.now;
  const webhooks = new SandboxWebhooks(store, now, seed, options.webhooks, { saved: saved?.webhooks, changed });
  const auth = new SandboxAuth({
    adminToken: options.token,
    store,
    now,
    oauth: options.oauth && { ...options.oauth, clients: options.oauth.clients?.map(parseClientConfig) },
    saved: saved?.auth,
    changed,
  });
  events.on('change', (change: SandboxChange) => {
    webhooks.handleChange(change);
    changed();
  });
  persistence.attach(() => ({
    store: store.exportState(),
    webhooks: webhooks.exportState(),
    iterators: { random: iteratorRandom.state(), key: iteratorKey },
    auth: auth.exportState(),
  }));
  const router = createSandboxRouter({
    auth,
    store,
    iterators,
    faults,
    limiter,
    stats,
    webhooks,
    basesIteratorId: iteratorIds.next('itr'),
  });
  const close = () => {
    webhooks.close();
    persistence.saver?.close();
  };
  return { router, store, faults, stats, events, webhooks, auth, close };
}

const consoleLogger: SandboxLogger = {
  info: (details, message) => console.info(`sandbox: ${message}`, details),
  warn: (details, message) => console.warn(`sandbox: ${message}`, details),
};

function defaultFaults(options: SandboxOptions): FaultSettings {
  return {
    errorRate: 0,
    errorStatus: 503,
    latencyMs: 0,
    rateLimitPerSecond: options.rateLimitPerSecond ?? 5,
    userRateLimitPerSecond: options.userRateLimitPerSecond ?? 50,
    lockoutMs: options.lockoutMs ?? 30_000,
    rateLimitBody: 'error',
    iteratorTtlMs: options.iteratorTtlMs ?? 300_000,
  };
}

function checkScale(scale: number): number {
  if (!Number.isFinite(scale) || scale < 0) throw new Error(`Invalid demo scale ${scale}`);
  return scale;
}
