import { availableParallelism } from 'node:os';
import { z } from 'zod';
import type { ConnectionLimits } from './connection-limits.js';
import { bearerToken } from './upstream/bearer-token.js';

/** The fixed bearer token of the built-in sandbox when SANDBOX_TOKEN is unset (documented in README and .env.example). */
export const DEFAULT_SANDBOX_TOKEN = 'sandbox-token';
/** The OAuth integration the sandbox registers for the service itself (a public client: no secret). */
export const SANDBOX_OAUTH_CLIENT_ID = 'basewatch-sandbox';

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const integer = (min: number, max: number, fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().int().min(min).max(max))
      .optional()
      .transform((value) => value ?? fallback),
  );
const DURATION_UNITS_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** `250ms`, `5s`, `30m`, `2h`, `5d` → milliseconds; undefined when malformed. */
const parseDuration = (text: string): number | undefined => {
  const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(text.trim());
  return match ? Number(match[1]) * DURATION_UNITS_MS[match[2] as keyof typeof DURATION_UNITS_MS] : undefined;
};
const durationList = (fallback: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default(fallback)
      .transform((value, ctx) => {
        const parts = value.split(',').map(parseDuration);
        if (parts.some((ms) => ms === undefined)) {
          ctx.addIssue({ code: 'custom', message: 'must be comma-separated durations such as 5s,5m,2h (units ms, s, m, h, d)' });
          return z.NEVER;
        }
        return parts as number[];
      }),
  );
const duration = (fallback: string) =>
  durationList(fallback)
    .refine((parts) => parts.length === 1, 'must be one duration such as 5s')
    .transform((parts) => parts[0]!);
const decodedBytes = (value: string) => Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64').length;
const hostPattern = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;
const httpUrl = z.url({ protocol: /^https?$/ });

/** `entry` as browsers send an origin (scheme, host, port; lower case, no default port), or undefined when it has more. */
function originOf(entry: string): string | undefined {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return undefined;
  }
  // No wildcards inside an entry (`https://*.example.com` would be taken literally), no credentials, query or fragment.
  const bare = url.pathname === '/' && !/[*?#@]/.test(entry);
  return /^https?:$/.test(url.protocol) && bare ? url.origin : undefined;
}

const corsOrigins = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const entries = (value ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      const invalid = entries.filter((entry) => entry !== '*' && originOf(entry) === undefined);
      if (invalid.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `${invalid.map((entry) => JSON.stringify(entry)).join(', ')} ${invalid.length === 1 ? 'is not an origin' : 'are not origins'}: list scheme://host[:port] entries (http or https, no path), or *`,
        });
        return z.NEVER;
      }
      return [...new Set(entries.map((entry) => (entry === '*' ? entry : originOf(entry)!)))];
    }),
);

const envSchema = z.object({
  PORT: integer(0, 65535, 3000),
  HOST: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^([A-Za-z0-9.-]+|[0-9a-fA-F:]+)$/, 'must be a host name or IP address')
      .optional(),
  ),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('sqlite:data/basewatch.sqlite')
      .refine((v) => /^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(v), 'must be sqlite:<path> or postgres://…'),
  ),
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^rediss?:\/\/.+/.test(v), 'must be redis://… or rediss://…')
      .optional(),
  ),
  REDIS_KEY_PREFIX: z.preprocess(emptyToUndefined, z.string().max(100).default('basewatch:')),
  BOOTSTRAP_API_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^sk_[A-Za-z0-9_-]{32,}$/, 'must be sk_ followed by at least 32 base62/base64url characters')
      .optional(),
  ),
  SECRET_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9+/_=-]+$/, 'must be base64 or base64url')
      .refine((value) => decodedBytes(value) >= 32, 'must decode to at least 32 bytes (44 base64 characters)')
      .optional(),
  ),
  AIRTABLE_TOKEN: z.preprocess(emptyToUndefined, bearerToken.optional()),
  AIRTABLE_API_URL: z.preprocess(emptyToUndefined, httpUrl.default('https://api.airtable.com')),
  AIRTABLE_OAUTH_CLIENT_ID: optionalString,
  AIRTABLE_OAUTH_CLIENT_SECRET: optionalString,
  AIRTABLE_OAUTH_URL: z.preprocess(emptyToUndefined, httpUrl.default('https://airtable.com')),
  AIRTABLE_SHARED_TOKEN: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('true')),
  SANDBOX_TOKEN: z.preprocess(emptyToUndefined, bearerToken.min(8).default(DEFAULT_SANDBOX_TOKEN)),
  SANDBOX_DEMO_SCALE: integer(0, 10_000, 1),
  // Not emptyToUndefined: empty, like `off`, means memory only.
  SANDBOX_STATE_FILE: z.string().optional(),
  PUBLIC_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
  MONGODB_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// URL')
      .optional(),
  ),
  WEBHOOK_ALLOWED_HOSTS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(
        (value) =>
          value
            .split(',')
            .map((h) => h.trim())
            .filter(Boolean)
            .every((h) => hostPattern.test(h)),
        'must be comma-separated host or host:port entries',
      )
      .optional(),
  ),
  WEBHOOK_RETRY_SCHEDULE: durationList('5s,5m,30m,2h,5h,10h,10h'),
  WEBHOOK_TIMEOUT: duration('15s'),
  WEBHOOK_COALESCE_WINDOW: duration('5s'),
  WEBHOOK_COALESCE_MAX_WAIT: duration('30s'),
  WEBHOOK_DISABLE_AFTER: duration('5d'),
  WEBHOOK_DELIVERY_CONCURRENCY: integer(1, 1_000, 50),
  WEBHOOK_DELIVERY_RETENTION: duration('30d'),
  ADMIN_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16).optional()),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  API_RATE_LIMIT_PER_MINUTE: integer(1, 1_000_000, 600),
  UPSTREAM_REQUESTS_PER_SECOND: integer(1, 50, 5),
  UPSTREAM_TIMEOUT_MS: integer(100, 600_000, 30_000),
  UPSTREAM_MAX_RETRIES: integer(0, 20, 5),
  UPSTREAM_LOCKOUT_MS: integer(0, 600_000, 30_000),
  UPSTREAM_RETRY_BASE_DELAY_MS: integer(0, 60_000, 500),
  COUNT_LOCK_TTL_MS: integer(1_000, 3_600_000, 60_000),
  SHUTDOWN_TIMEOUT_MS: integer(0, 600_000, 30_000),
  SHUTDOWN_DRAIN_MS: integer(0, 600_000, 0),
  HTTP_HEADERS_TIMEOUT_MS: integer(100, 600_000, 10_000),
  HTTP_REQUEST_TIMEOUT_MS: integer(100, 3_600_000, 30_000),
  MAX_CONNECTIONS_PER_ADDRESS: integer(0, 1_000_000, 64),
  WEB_CONCURRENCY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('1')
      .refine((v) => v === 'auto' || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 64), 'must be auto or a whole number from 1 to 64'),
  ),
  SCHEDULER_RUN_JOBS: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('true')),
  JOBS_PROCESS_EVERY_MS: integer(10, 600_000, 5_000),
  JOBS_LOCK_LIFETIME_MS: integer(1_000, 86_400_000, 600_000),
  USAGE_SPREAD_SECONDS: integer(0, 3_540, 300),
  USAGE_RETRY_DELAY_MS: integer(10, 86_400_000, 60_000),
  USAGE_MAX_RETRIES: integer(0, 20, 3),
  AUDIT_POLL_INTERVAL_SECONDS: integer(1, 86_400, 60),
  AUDIT_RETENTION_DAYS: integer(1, 36_500, 180),
  AUDIT_WRITE_RETRY_BASE_MS: integer(10, 3_600_000, 5_000),
  AUDIT_WRITE_MAX_RETRY_MS: integer(10, 86_400_000, 600_000),
  MIRROR_RESTORE_SETTLE_MS: integer(1_000, 3_600_000, 60_000),
  GRAPHQL_MAX_DEPTH: integer(2, 100, 10),
  GRAPHQL_MAX_COST: integer(10, 10_000_000, 10_000),
  GRAPHQL_MAX_QUERY_BYTES: integer(1_024, 1_048_576, 65_536),
  GRAPHQL_MAX_TOKENS: integer(100, 1_000_000, 10_000),
  GRAPHQL_MAX_ALIASES: integer(0, 100_000, 100),
  GRAPHQL_MAX_FRAGMENT_SPREADS: integer(0, 100_000, 500),
  GRAPHQL_INTROSPECTION: z.preprocess(emptyToUndefined, z.enum(['key', 'public', 'off']).default('key')),
  GRAPHQL_MAX_SOCKETS_PER_ACCOUNT: integer(1, 10_000, 20),
  MAX_API_KEYS_PER_ACCOUNT: integer(1, 100_000, 50),
  MAX_WEBHOOKS_PER_BASE: integer(1, 100_000, 10),
  MAX_TRACKED_BASES_PER_ACCOUNT: integer(1, 100_000, 100),
  MAX_MONITORING_CONFIGS_PER_ACCOUNT: integer(1, 100_000, 50),
  CACHE_MAX_MB: integer(0, 65_536, 64),
  CORS_ORIGINS: corsOrigins,
  SIGNUP: z.preprocess(emptyToUndefined, z.enum(['open', 'closed']).optional()),
});

export interface Config {
  port: number;
  host: string;
  database: { type: 'sqlite'; path: string } | { type: 'postgres'; url: string };
  /** Memory (MiB) of the services' read-model cache (snapshot and change pages); 0 keeps nothing. */
  cacheMaxMb: number;
  /** The state replicas share (upstream limiters, request budgets, subscription events); none: this process's memory. */
  redis?: { url: string; keyPrefix: string };
  /** Folder for local state: the SQLite file and a generated secret key. */
  dataDir: string;
  bootstrapApiKey?: string;
  secretKey?: string;
  upstream: {
    mode: 'airtable' | 'sandbox';
    /** Base URL of the upstream API; unset in sandbox mode until the server knows its own address. */
    apiUrl?: string;
    /** The deployment's own token (AIRTABLE_TOKEN, or the sandbox's); unset: every account needs a connection. */
    token?: string;
    requestsPerSecond: number;
    timeoutMs: number;
    maxRetries: number;
    lockoutMs: number;
    retryBaseDelayMs: number;
  };
  /**
   * The OAuth integration accounts connect through. In sandbox mode the sandbox's own integration, whose URL is
   * known once the server listens; unset client id: OAuth is off.
   */
  oauth: { clientId?: string; clientSecret?: string; url?: string };
  /** Whether the deployment's token (AIRTABLE_TOKEN, or the sandbox's demo user) serves accounts without a connection. */
  sharedToken: boolean;
  sandbox: {
    token: string;
    demoScale: number;
    /** The sandbox's state file (beside the SQLite file by default); undefined: memory only. */
    stateFile?: string;
  };
  publicUrl?: string;
  mongodbUrl?: string;
  webhookAllowedHosts: string[];
  webhooks: {
    /** Delays before the 2nd, 3rd … attempt of a failed delivery; after the last, the delivery is failed. */
    retryScheduleMs: number[];
    timeoutMs: number;
    /** record_update deliveries of one record merge while no update arrived for this long … */
    coalesceWindowMs: number;
    /** … but go out at the latest this long after the first. */
    coalesceMaxWaitMs: number;
    /** A webhook whose deliveries have all failed for this long is deactivated. */
    disableAfterMs: number;
    /** Deliveries in flight at once per process. */
    concurrency: number;
    /** Finished deliveries (and their attempts) older than this are pruned. */
    retentionMs: number;
  };
  adminToken?: string;
  /** Origins whose pages may call the APIs from a browser (CORS_ORIGINS); `*` for any, without credentials. Empty: none. */
  corsOrigins: string[];
  /** Whether anyone may sign up in the web application (SIGNUP); closed: the CLI creates users. */
  signup: 'open' | 'closed';
  graphql: {
    /** Deepest field nesting an operation may have (introspection fields aside). */
    maxDepth: number;
    /** Highest estimated cost of an operation: one per field, times the page size under a connection. */
    maxCost: number;
    /** Bounds of the query text itself, checked before it is validated. */
    document: DocumentBounds;
    /** `key`: introspection needs an API key like every operation; `public`: it does not (development); `off`: disabled. */
    introspection: 'key' | 'public' | 'off';
    /** Subscription sockets one account may hold open on this process; the next is closed with 4429. */
    maxSocketsPerAccount: number;
  };
  /** What one account may hold at most; past a quota a create is refused with 409 `conflict`. */
  quotas: Quotas;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  apiRateLimitPerMinute: number;
  countLockTtlMs: number;
  shutdownTimeoutMs: number;
  /**
   * After SIGTERM, how long to go on serving (with `Connection: close`) while /readyz already answers 503, so that a
   * load balancer takes the replica out of rotation before it stops accepting requests. 0 on a laptop.
   */
  shutdownDrainMs: number;
  /** Slow requests and connections per remote address (src/connection-limits.ts). */
  connections: ConnectionLimits;
  /** Serving processes on this host (WEB_CONCURRENCY; `auto`: one per core): more than one runs under node:cluster. */
  webConcurrency: number;
  audit: {
    /** How often every watch is read without waiting for a ping (lost pings, no public URL). */
    pollIntervalMs: number;
    /** Change entries older than this are pruned daily. */
    retentionDays: number;
    /** Backoff of Changes-table writes that failed: first delay, doubling up to the maximum. */
    writeRetryBaseMs: number;
    writeMaxRetryMs: number;
  };
  mirror: {
    /**
     * A restore resumed after a crash looks for the records of the batch of creates it had sent in the mirror (they
     * come back through the watch); found none, it waits this long after the batch was sent before sending it again.
     */
    restoreSettleMs: number;
  };
  jobs: {
    /** False for an API-only process: jobs are planned, another process runs them. */
    run: boolean;
    processEveryMs: number;
    lockLifetimeMs: number;
    usageSpreadMs: number;
    usageRetryDelayMs: number;
    usageMaxRetries: number;
  };
}

/** Bounds of a GraphQL query text, checked before it is validated (graphql/document-bounds.ts). */
export interface DocumentBounds {
  /** UTF-8 bytes of the query text. */
  maxBytes: number;
  /** Lexical tokens (graphql-js stops parsing past this). */
  maxTokens: number;
  /** Fields given another response name (`a: field`). */
  maxAliases: number;
  /** `...Fragment` spreads, counted where they are written. */
  maxFragmentSpreads: number;
}

export interface Quotas {
  /** Working (unrevoked) API keys of an account. */
  apiKeysPerAccount: number;
  /** Active forwarding webhooks an account has on one upstream base. */
  webhooksPerBase: number;
  /** Tracked (usage) bases of an account. */
  trackedBasesPerAccount: number;
  /** Monitoring configs of an account. */
  monitoringConfigsPerAccount: number;
}

/** The variable that sets each quota, named in the refusal so that an operator knows what to raise. */
export const QUOTA_VARIABLES: Record<keyof Quotas, string> = {
  apiKeysPerAccount: 'MAX_API_KEYS_PER_ACCOUNT',
  webhooksPerBase: 'MAX_WEBHOOKS_PER_BASE',
  trackedBasesPerAccount: 'MAX_TRACKED_BASES_PER_ACCOUNT',
  monitoringConfigsPerAccount: 'MAX_MONITORING_CONFIGS_PER_ACCOUNT',
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The only reader of the environment. Validates every variable and reports all problems at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const database = e.DATABASE_URL.startsWith('sqlite:')
    ? { type: 'sqlite' as const, path: e.DATABASE_URL.slice('sqlite:'.length) }
    : { type: 'postgres' as const, url: e.DATABASE_URL };
  const dataDir = database.type === 'sqlite' && database.path !== ':memory:' ? dirnameOf(database.path) : 'data';
  // The real platform as soon as a token or an OAuth integration is configured; else the built-in sandbox.
  const sandboxMode = e.AIRTABLE_TOKEN === undefined && e.AIRTABLE_OAUTH_CLIENT_ID === undefined;
  return {
    port: e.PORT,
    cacheMaxMb: e.CACHE_MAX_MB,
    // The demo's API and the sandbox with its well-known token stay on this machine unless asked otherwise.
    host: e.HOST ?? (sandboxMode ? '127.0.0.1' : '0.0.0.0'),
    database,
    dataDir,
    bootstrapApiKey: e.BOOTSTRAP_API_KEY,
    secretKey: e.SECRET_KEY,
    upstream: {
      mode: sandboxMode ? 'sandbox' : 'airtable',
      apiUrl: sandboxMode ? undefined : e.AIRTABLE_API_URL.replace(/\/+$/, ''),
      token: sandboxMode ? e.SANDBOX_TOKEN : e.AIRTABLE_TOKEN,
      requestsPerSecond: e.UPSTREAM_REQUESTS_PER_SECOND,
      timeoutMs: e.UPSTREAM_TIMEOUT_MS,
      maxRetries: e.UPSTREAM_MAX_RETRIES,
      lockoutMs: e.UPSTREAM_LOCKOUT_MS,
      retryBaseDelayMs: e.UPSTREAM_RETRY_BASE_DELAY_MS,
    },
    sharedToken: e.AIRTABLE_SHARED_TOKEN === 'true' && (sandboxMode || e.AIRTABLE_TOKEN !== undefined),
    oauth: sandboxMode
      ? { clientId: e.AIRTABLE_OAUTH_CLIENT_ID ?? SANDBOX_OAUTH_CLIENT_ID, clientSecret: e.AIRTABLE_OAUTH_CLIENT_SECRET }
      : {
          clientId: e.AIRTABLE_OAUTH_CLIENT_ID,
          clientSecret: e.AIRTABLE_OAUTH_CLIENT_SECRET,
          url: e.AIRTABLE_OAUTH_URL.replace(/\/+$/, ''),
        },
    sandbox: { token: e.SANDBOX_TOKEN, demoScale: e.SANDBOX_DEMO_SCALE, stateFile: sandboxStateFile(e.SANDBOX_STATE_FILE, dataDir) },
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    mongodbUrl: e.MONGODB_URL,
    webhookAllowedHosts: (e.WEBHOOK_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    webhooks: {
      retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE,
      timeoutMs: e.WEBHOOK_TIMEOUT,
      coalesceWindowMs: e.WEBHOOK_COALESCE_WINDOW,
      coalesceMaxWaitMs: Math.max(e.WEBHOOK_COALESCE_MAX_WAIT, e.WEBHOOK_COALESCE_WINDOW),
      disableAfterMs: e.WEBHOOK_DISABLE_AFTER,
      concurrency: e.WEBHOOK_DELIVERY_CONCURRENCY,
      retentionMs: e.WEBHOOK_DELIVERY_RETENTION,
    },
    adminToken: e.ADMIN_TOKEN,
    redis: e.REDIS_URL ? { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX } : undefined,
    corsOrigins: e.CORS_ORIGINS,
    signup: e.SIGNUP ?? (sandboxMode ? 'open' : 'closed'),
    graphql: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxCost: e.GRAPHQL_MAX_COST,
      document: {
        maxBytes: e.GRAPHQL_MAX_QUERY_BYTES,
        maxTokens: e.GRAPHQL_MAX_TOKENS,
        maxAliases: e.GRAPHQL_MAX_ALIASES,
        maxFragmentSpreads: e.GRAPHQL_MAX_FRAGMENT_SPREADS,
      },
      introspection: e.GRAPHQL_INTROSPECTION,
      maxSocketsPerAccount: e.GRAPHQL_MAX_SOCKETS_PER_ACCOUNT,
    },
    quotas: {
      apiKeysPerAccount: e.MAX_API_KEYS_PER_ACCOUNT,
      webhooksPerBase: e.MAX_WEBHOOKS_PER_BASE,
      trackedBasesPerAccount: e.MAX_TRACKED_BASES_PER_ACCOUNT,
      monitoringConfigsPerAccount: e.MAX_MONITORING_CONFIGS_PER_ACCOUNT,
    },
    logLevel: e.LOG_LEVEL,
    apiRateLimitPerMinute: e.API_RATE_LIMIT_PER_MINUTE,
    countLockTtlMs: e.COUNT_LOCK_TTL_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    connections: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      maxPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
    },
    webConcurrency: e.WEB_CONCURRENCY === 'auto' ? availableParallelism() : Number(e.WEB_CONCURRENCY),
    audit: {
      pollIntervalMs: e.AUDIT_POLL_INTERVAL_SECONDS * 1000,
      retentionDays: e.AUDIT_RETENTION_DAYS,
      writeRetryBaseMs: e.AUDIT_WRITE_RETRY_BASE_MS,
      writeMaxRetryMs: e.AUDIT_WRITE_MAX_RETRY_MS,
    },
    mirror: { restoreSettleMs: e.MIRROR_RESTORE_SETTLE_MS },
    jobs: {
      run: e.SCHEDULER_RUN_JOBS === 'true',
      processEveryMs: e.JOBS_PROCESS_EVERY_MS,
      lockLifetimeMs: e.JOBS_LOCK_LIFETIME_MS,
      usageSpreadMs: e.USAGE_SPREAD_SECONDS * 1000,
      usageRetryDelayMs: e.USAGE_RETRY_DELAY_MS,
      usageMaxRetries: e.USAGE_MAX_RETRIES,
    },
  };
}

export const SANDBOX_STATE_FILE_NAME = 'sandbox-state.json';

function sandboxStateFile(value: string | undefined, dataDir: string): string | undefined {
  if (value === undefined) return `${dataDir}/${SANDBOX_STATE_FILE_NAME}`;
  return value.trim() === '' || value.trim().toLowerCase() === 'off' ? undefined : value.trim();
}

function dirnameOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? (slash === 0 ? '/' : '.') : path.slice(0, slash);
}
