import { randomUUID } from 'node:crypto';
import type { Repository } from 'typeorm';
import type { UsageBase } from '../entities/index.js';

/**
 * The lock that lets one count of a base run at a time, across every process on the database. It is a token and a
 * lapse time on the base's row, taken and renewed with single conditional updates; a process that dies leaves a
 * lock that lapses after `ttlMs`.
 */
export class CountLock {
  private readonly token = randomUUID();
  private renewal?: NodeJS.Timeout;

  private constructor(
    private readonly repository: Repository<UsageBase>,
    private readonly usageBaseId: string,
    private readonly ttlMs: number,
  ) {}

  /** The lock, or undefined while another count holds it. */
  static async acquire(repository: Repository<UsageBase>, usageBaseId: string, ttlMs: number): Promise<CountLock | undefined> {
    const lock = new CountLock(repository, usageBaseId, ttlMs);
    const now = new Date();
    const taken = await repository
      .createQueryBuilder()
      .update()
      .set({ countLockToken: lock.token, countLockUntil: new Date(now.getTime() + ttlMs) })
      .where('id = :id AND (count_lock_until IS NULL OR count_lock_until < :now)', {
        id: usageBaseId,
        now: now.toISOString(),
      })
      .execute();
    if (taken.affected !== 1) return undefined;
    lock.renewal = setInterval(() => void lock.renew().catch(() => undefined), Math.max(250, ttlMs / 4));
    lock.renewal.unref();
    return lock;
  }

  async release(): Promise<void> {
    clearInterval(this.renewal);
    await this.repository
      .createQueryBuilder()
      .update()
      .set({ countLockToken: null, countLockUntil: null })
      .where('id = :id AND count_lock_token = :token', { id: this.usageBaseId, token: this.token })
      .execute();
  }

  private async renew(): Promise<void> {
    await this.repository
      .createQueryBuilder()
      .update()
      .set({ countLockUntil: new Date(Date.now() + this.ttlMs) })
      .where('id = :id AND count_lock_token = :token', { id: this.usageBaseId, token: this.token })
      .execute();
  }
}
