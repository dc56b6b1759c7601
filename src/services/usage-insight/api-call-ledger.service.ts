import type { DataSource, Repository } from 'typeorm';
import { UpstreamApiCall } from '../../entities/index.js';
import { safeError, type Logger } from '../../logger.js';
import { addApiCalls } from '../../repositories/api-call-ledger.repository.js';
import { CALL_PURPOSES, type CallPurpose } from '../../upstream/call-purpose.js';
import type { UpstreamRequestSent } from '../../upstream/types.js';

const FLUSH_INTERVAL_MS = 5_000;

export interface ApiCallLedgerOptions {
  logger: Logger;
  /** How often this process's counts are added to the table; default 5 s. */
  flushIntervalMs?: number;
  now?: () => Date;
}

/** One upstream user's requests in one month. */
export interface MonthCalls {
  total: number;
  byPurpose: Record<CallPurpose, number>;
  /** Requests to a base, most first; requests outside any base are only in the totals. */
  byBase: Array<{ baseId: string; calls: number }>;
}

/** The UTC month of an instant, `YYYY-MM`. */
export const monthOf = (instant: Date): string => instant.toISOString().slice(0, 7);

/**
 * Every upstream request the service sends, counted per UTC month, upstream user, base and purpose (the
 * transport's `onRequestSent`). Counted in memory, then added to `upstream_api_call` every few seconds, before every
 * read in this process and on shutdown; each process adds only its own counts, so replicas sum up. A failed flush
 * keeps its counts for the next one.
 */
export class ApiCallLedgerService {
  private readonly repository: Repository<UpstreamApiCall>;
  private readonly now: () => Date;
  private pending = new Map<string, number>();
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    options: ApiCallLedgerOptions,
  ) {
    this.repository = dataSource.getRepository(UpstreamApiCall);
    this.now = options.now ?? (() => new Date());
    this.timer = setInterval(() => {
      this.flush().catch((error: unknown) =>
        options.logger.warn({ err: safeError(error) }, 'could not store the API-call ledger; will retry'),
      );
    }, options.flushIntervalMs ?? FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  /** The transport's `onRequestSent`. */
  readonly record = (request: UpstreamRequestSent): void => {
    const key = [monthOf(this.now()), request.userKey, request.baseId ?? '', request.purpose].join('\n');
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
  };

  /** Adds the counts gathered so far to the table; one flush at a time. */
  flush(): Promise<void> {
    const run = this.flushing.catch(() => undefined).then(() => this.write());
    this.flushing = run;
    return run;
  }

  /** Shutdown: no more timed flushes, and a last one. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** An upstream user's requests in a month (`YYYY-MM`), this process's latest included. */
  async month(userKey: string, month: string): Promise<MonthCalls> {
    await this.flush();
    return sumCalls(await this.repository.find({ where: { month, userKey } }));
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      // In key order: replicas upserting overlapping rows then lock them in the same order (no deadlock on PostgreSQL).
      const rows = [...batch].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, calls]) => [...key.split('\n'), calls]);
      await this.dataSource.transaction((manager) => addApiCalls(manager, rows));
    } catch (error) {
      // Nothing of the batch was stored (one transaction): it goes back, with what was counted meanwhile.
      for (const [key, calls] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + calls);
      throw error;
    }
  }
}

/** The ledger's rows of one user and month, summed. */
export function sumCalls(rows: Array<Pick<UpstreamApiCall, 'baseId' | 'purpose' | 'calls'>>): MonthCalls {
  const byPurpose = Object.fromEntries(CALL_PURPOSES.map((purpose) => [purpose, 0])) as Record<CallPurpose, number>;
  const perBase = new Map<string, number>();
  let total = 0;
  for (const row of rows) {
    total += row.calls;
    if (row.purpose in byPurpose) byPurpose[row.purpose as CallPurpose] += row.calls;
    if (row.baseId) perBase.set(row.baseId, (perBase.get(row.baseId) ?? 0) + row.calls);
  }
  const byBase = [...perBase]
    .map(([baseId, calls]) => ({ baseId, calls }))
    .sort((a, b) => b.calls - a.calls || (a.baseId < b.baseId ? -1 : a.baseId > b.baseId ? 1 : 0));
  return { total, byPurpose, byBase };
}
