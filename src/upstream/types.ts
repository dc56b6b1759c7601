import type { CallPurpose } from './call-purpose.js';
import type { UpstreamLimiter } from './limiter.js';
/** Shapes of the upstream platform (Airtable Web API or the sandbox), as the client returns them. */

/** `none | read | comment | edit | create` today; kept open because the platform may add levels. */
export type UpstreamPermissionLevel = string;

export interface UpstreamBase {
  id: string;
  name: string;
  permissionLevel: UpstreamPermissionLevel;
}

/** `type` stays a plain string: the platform adds field types without calling it a breaking change. */
export interface UpstreamField {
  id: string;
  name: string;
  type: string;
  description?: string;
  options?: Record<string, unknown>;
}

export interface UpstreamView {
  id: string;
  name: string;
  type: string;
  visibleFieldIds?: string[];
}

export interface UpstreamTable {
  id: string;
  name: string;
  description?: string;
  primaryFieldId: string;
  fields: UpstreamField[];
  views?: UpstreamView[];
}

/** Empty cells are absent from `fields`, never present as `""`, `[]` or `false`. */
export interface UpstreamRecord {
  id: string;
  createdTime: string;
  fields: Record<string, unknown>;
}

/** A `multipleAttachments` cell item; everything but `id` can be missing while an upload is processed. */
export interface UpstreamAttachment {
  id: string;
  url?: string;
  filename?: string;
  /** Bytes. */
  size?: number;
  type?: string;
}

export interface RecordSort {
  field: string;
  direction?: 'asc' | 'desc';
}

export interface ListRecordsOptions {
  fields?: string[];
  /** 1–100, default 100. */
  pageSize?: number;
  returnFieldsByFieldId?: boolean;
  maxRecords?: number;
  view?: string;
  filterByFormula?: string;
  sort?: RecordSort[];
  cellFormat?: 'json' | 'string';
  /** Only used with `cellFormat: 'string'`; always sent in the query string, even for POST listRecords. */
  timeZone?: string;
  userLocale?: string;
}

export interface RecordListPage {
  records: UpstreamRecord[];
  /** True on the first page of a listing restarted after the upstream iterator expired. */
  restarted: boolean;
}

export interface WriteRecordsOptions {
  typecast?: boolean;
  returnFieldsByFieldId?: boolean;
}

export interface NewRecord {
  fields: Record<string, unknown>;
}

export interface RecordUpdate {
  id: string;
  fields: Record<string, unknown>;
}

export interface NewField {
  name: string;
  type: string;
  description?: string;
  options?: Record<string, unknown>;
}

export interface NewTable {
  name: string;
  description?: string;
  /** The first field becomes the primary field. */
  fields: NewField[];
}

export interface UpstreamLogger {
  warn(obj: object, msg: string): void;
  debug?(obj: object, msg: string): void;
}

/** A token that may change: asked before every attempt, told when the upstream answered 401 to one it gave. */
export interface TokenSource {
  /** Whose per-user budget (50 requests/s) the requests spend: the upstream user id. */
  readonly userKey: string;
  current(): Promise<{ token: string; version: number }>;
  /** The token of `version` was refused: a renewed one, or a throw when it cannot be renewed. Absent: refusals are final. */
  refused?(version: number): Promise<{ token: string; version: number }>;
}

export interface UpstreamClientOptions {
  /** `https://api.airtable.com` or e.g. `http://127.0.0.1:3000/sandbox/airtable`; `/v0/...` is appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`: a fixed token, or a source that can renew it (an account's connection). */
  token: string | TokenSource;
  /** Per base, default 5. */
  requestsPerSecond?: number;
  /** Wait after a 429, default 30,000. */
  lockoutMs?: number;
  /** Retries after the first attempt, default 5. */
  maxRetries?: number;
  /** First backoff step, default 500; doubles per retry with jitter, capped at 30 s. */
  retryBaseDelayMs?: number;
  /** Per attempt, default 30,000. */
  timeoutMs?: number;
  logger?: UpstreamLogger;
  /** Told how every attempt ended (the service's metrics). */
  onAttempt?: (attempt: UpstreamAttempt) => void;
  /** Told of every request as it goes out, retries and 429s included: what the upstream counts (the API-call ledger). */
  onRequestSent?: (request: UpstreamRequestSent) => void;
  /** Where the platform's budgets are kept; this process's memory unless replicas share them (redis-limiter.ts). */
  limiter?: UpstreamLimiter;
}

/** One HTTP exchange with the upstream: `rate_limited` is a 429, `error` any other failure (status, network, time-out). */
export interface UpstreamAttempt {
  method: string;
  /** Below `/v0`, ids included. */
  path: string;
  outcome: 'ok' | 'rate_limited' | 'error';
}

/** Whose budget one request spends, and why it was sent (call-purpose.ts). */
export interface UpstreamRequestSent {
  /** The token source's `userKey`: the upstream user id, or `token:<fingerprint>` for a fixed token. */
  userKey: string;
  /** The base the request reads or writes; absent for requests outside a base (bases listing, whoami). */
  baseId?: string;
  purpose: CallPurpose;
}

export interface UpstreamStats {
  /** Attempts sent, retries included. */
  requests: number;
  retries: number;
  /** 429 responses received. */
  rateLimited: number;
}
