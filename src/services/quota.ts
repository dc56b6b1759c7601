import { QUOTA_VARIABLES, type Quotas } from '../config.js';
import { conflict, type AppError } from '../errors.js';
import { KeyedMutex } from './keyed-mutex.js';

/**
 * One per-account quota (config.quotas). A create runs under `run` (one create of the account at a time in this
 * process, so a burst is counted exactly), checks for room before doing anything (upstream calls included), inserts
 * its row, then counts again with the row in. That second count is what holds across processes, on SQLite and
 * PostgreSQL alike, without a database lock: of creates racing past the first check, any row that is kept was
 * counted with every row inserted before it, so the quota is never exceeded (two processes racing for the last place
 * may both be refused, never both kept).
 */
export class Quota {
  private readonly mutex = new KeyedMutex();

  constructor(
    readonly name: keyof Quotas,
    readonly limit: number,
    /** What is counted, in the plural ("API keys"). */
    private readonly noun: string,
    /** What the caller can do about it ("revoke one"). */
    private readonly remedy: string,
  ) {}

  static of(quotas: Quotas, name: keyof Quotas, noun: string, remedy: string): Quota {
    return new Quota(name, quotas[name], noun, remedy);
  }

  /** 409 `conflict` (CONTRACT §1 has no code of its own for a quota) naming the limit and the variable that sets it. */
  exceeded(where = ''): AppError {
    return conflict(
      `This account has reached its quota of ${this.limit} ${this.noun}${where} (${QUOTA_VARIABLES[this.name]}): ${this.remedy} before creating another`,
    );
  }

  /** Runs one create of the account's (`key`) at a time in this process. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.mutex.run(key, work);
  }

  /** Refuses when `count` (the account's rows now) leaves no room for one more. */
  async requireRoom(count: () => Promise<number>, where?: string): Promise<void> {
    if ((await count()) >= this.limit) throw this.exceeded(where);
  }

  /** After the insert: takes the new row back and refuses when `count` (which includes it) is over the limit. */
  async keepWithin(count: () => Promise<number>, takeBack: () => Promise<unknown>, where?: string): Promise<void> {
    if ((await count()) <= this.limit) return;
    await takeBack();
    throw this.exceeded(where);
  }
}
