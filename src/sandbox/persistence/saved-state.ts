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

export const STATE_FORMAT = 'basewatch-sandbox-state';
export const STATE_VERSION = 1;

/** The whole file. Fault settings, rate-limit lock-outs, live list iterators and pending pings are not kept. */
export interface SandboxState {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  savedAt: string;
  store: StoreState;
  webhooks: WebhooksState;
  /** The list-records iterator id stream, so an offset from before a restart never names a new iterator. */
  iterators: { random: number };
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
