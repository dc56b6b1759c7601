import type { StoredPersonalToken } from '../auth/personal-tokens.js';
import type { DirectoryState } from '../auth/user-directory.js';
import type { StoredOAuthClient } from '../oauth/oauth-clients.js';
import type { StoredGrant } from '../oauth/oauth-grants.js';
import type { SandboxBase, SandboxRecord, SandboxTable } from '../sandbox.types.js';
import type { StoredWebhook } from '../webhooks/webhook.types.js';

/** A table as saved: its records as an array, in creation order (a Map has no JSON form). */
export interface SavedTable extends Omit<SandboxTable, 'records'> {
  records: SandboxRecord[];
}

export interface SavedBase extends Omit<SandboxBase, 'tables'> {
  tables: SavedTable[];
}

export interface StoreState {
  /** The id stream's position: ids made after a restart continue it and never repeat one. */
  random: number;
  /** Large bases seeded so far (each draws its ids from a stream of its own, numbered by this). */
  largeBases: number;
  bases: SavedBase[];
}

export interface WebhooksState {
  random: number;
  webhooks: StoredWebhook[];
  transactionNumbers: Array<[baseId: string, number: number]>;
}

/** Users, collaborators, PATs, OAuth integrations and grants; tokens only as sha256 digests. Codes are not kept. */
export interface AuthState {
  directory: DirectoryState;
  personalTokens: StoredPersonalToken[];
  clients: StoredOAuthClient[];
  grants: StoredGrant[];
}

export const STATE_FORMAT = 'basewatch-sandbox-state';
export const STATE_VERSION = 1;

/**
 * The whole file. Fault settings, rate-limit lock-outs, live list iterators, pending pings, OAuth codes not yet
 * exchanged and the consent set by `PUT _control/oauth/consent` are not kept.
 */
export interface SandboxState {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  savedAt: string;
  store: StoreState;
  webhooks: WebhooksState;
  /**
   * The list-records iterator id stream, so an offset from before a restart never names a new iterator, and the key
   * that signs iterator ids, so such an offset is answered as expired, not invalid (absent in older files: the seed's).
   */
  iterators: { random: number; key?: string };
  /** Absent in files written before the sandbox had users: everything then belongs to the demo user. */
  auth?: AuthState;
}

export function saveBases(bases: Iterable<SandboxBase>): SavedBase[] {
  return [...bases].map((base) => ({
    ...base,
    tables: base.tables.map((table) => ({ ...table, records: [...table.records.values()] })),
  }));
}

export function loadBases(saved: SavedBase[]): SandboxBase[] {
  return saved.map((base) => ({
    ...base,
    tables: base.tables.map((table) => ({ ...table, records: new Map(table.records.map((record) => [record.id, record])) })),
  }));
}
