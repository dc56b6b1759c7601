/**
 * At most `limit` grants in any `windowMs`, served first come first served, plus a lock-out instant before which
 * nothing is granted. Holds a timer only while callers are waiting, so an idle window costs a few numbers.
 */
export class SlidingWindow {
  /** Grant instants, oldest first; never more than `limit` of them. */
  private readonly grants: number[] = [];
  private readonly waiting: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lockedUntil = 0;

  constructor(
    private limit: number,
    private readonly windowMs: number,
  ) {}

  /**
   * Resolves when the caller may start. A grant also needs room in `parent` and is recorded there too; the parent
   * is looked up at grant time, so a registry may replace an idle parent by a fresh one meanwhile.
   */
  take(parent?: () => SlidingWindow): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push({ resolve, parent });
      if (this.timer === undefined) this.drain();
    });
  }

  lockUntil(instant: number): void {
    this.lockedUntil = Math.max(this.lockedUntil, instant);
  }

  /** The strictest limit any caller asked for wins: clients sharing a window must not overrun each other. */
  restrictTo(limit: number): void {
    this.limit = Math.min(this.limit, Math.max(1, Math.floor(limit)));
  }

  delayAt(now: number): number {
    const full = this.grants.length >= this.limit;
    const windowDelay = full ? this.grants[this.grants.length - this.limit] + this.windowMs - now : 0;
    return Math.max(0, this.lockedUntil - now, windowDelay);
  }

  record(now: number): void {
    this.grants.push(now);
    if (this.grants.length > this.limit) this.grants.splice(0, this.grants.length - this.limit);
  }

  /** True when a fresh window would behave identically, so the registry may drop this one. */
  isIdleAt(now: number): boolean {
    const lastGrant = this.grants.at(-1) ?? Number.NEGATIVE_INFINITY;
    return this.waiting.length === 0 && this.lockedUntil <= now && lastGrant + this.windowMs <= now;
  }

  cancelTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private readonly drain = (): void => {
    this.timer = undefined;
    while (this.waiting.length > 0) {
      const now = Date.now();
      const parent = this.waiting[0].parent?.();
      const delay = Math.max(this.delayAt(now), parent?.delayAt(now) ?? 0);
      if (delay > 0) {
        this.timer = setTimeout(this.drain, delay);
        return;
      }
      this.record(now);
      parent?.record(now);
      this.waiting.shift()!.resolve();
    }
  };
}

interface Waiter {
  resolve: () => void;
  parent: (() => SlidingWindow) | undefined;
}
