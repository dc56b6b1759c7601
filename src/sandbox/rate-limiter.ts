/**
 * Sliding one-second windows counted at arrival. The request over the limit starts a lock-out during which every
 * request is refused; refused requests neither extend the lock-out nor count toward the next window.
 */
export class RateLimiter {
  private readonly arrivals = new Map<string, number[]>();
  private readonly lockedUntil = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** True when the request may go on. A limit of 0 means unlimited. */
  admit(key: string, limitPerSecond: number, lockoutMs: number): boolean {
    const now = this.now();
    const until = this.lockedUntil.get(key);
    if (until !== undefined) {
      if (now < until) return false;
      this.lockedUntil.delete(key);
    }
    if (limitPerSecond <= 0) return true;
    const window = (this.arrivals.get(key) ?? []).filter((time) => time > now - 1000);
    if (window.length >= limitPerSecond) {
      this.arrivals.delete(key);
      this.lockedUntil.set(key, now + lockoutMs);
      return false;
    }
    window.push(now);
    this.arrivals.set(key, window);
    return true;
  }

  clear(): void {
    this.arrivals.clear();
    this.lockedUntil.clear();
  }
}
