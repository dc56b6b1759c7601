/** How often a window whose every place is held by a request not yet on the wire looks again. */
const PENDING_POLL_MS = 5;

/**
 * A place in one or more windows, taken by one request. It counts from the instant the request went on the wire
 * (`sent`), because the platform counts requests on arrival and a request can leave well after it was granted
 * (a cold connection, a busy event loop). Until then it holds its place without expiring.
 */
export class Slot {
  private sentAt: number | undefined;

  /** `onSent` hears the instant once, for a place kept elsewhere (another process's windows, Redis). */
  constructor(private readonly onSent?: (instant: number) => void) {}

  /** Records when the request left; the first call wins, so a fallback call after the fact changes nothing. */
  sent(instant = Date.now()): void {
    if (this.sentAt !== undefined) return;
    this.sentAt = instant;
    this.onSent?.(instant);
  }

  /** When this place frees up: never, while the request has not left. */
  expiresAt(windowMs: number): number {
    return this.sentAt === undefined ? Number.POSITIVE_INFINITY : this.sentAt + windowMs;
  }
}

/**
 * At most `limit` requests sent in any `windowMs`, served first come first served, plus a lock-out instant before
 * which nothing is granted. Holds a timer only while callers are waiting, so an idle window costs a few numbers.
 */
export class SlidingWindow {
  /** Places still counting: sent within the window, or granted and not yet sent. */
  private slots: Slot[] = [];
  private readonly waiting: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lockedUntil = 0;

  constructor(
    private limit: number,
    private readonly windowMs: number,
  ) {}

  /**
   * Resolves with the caller's place when it may start. A grant also needs room in `parent` and takes a place there
   * too; the parent is looked up at grant time, so a registry may replace an idle parent by a fresh one meanwhile.
   */
  take(parent?: () => SlidingWindow): Promise<Slot> {
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

  /** How long until a place is free; infinite while every place is held by a request not yet sent. */
  delayAt(now: number): number {
    this.slots = this.slots.filter((slot) => slot.expiresAt(this.windowMs) > now);
    const excess = this.slots.length - this.limit;
    let windowDelay = 0;
    if (excess >= 0) {
      const expiries = this.slots.map((slot) => slot.expiresAt(this.windowMs)).sort((a, b) => a - b);
      windowDelay = expiries[excess] - now;
    }
    return Math.max(0, this.lockedUntil - now, windowDelay);
  }

  hold(slot: Slot): void {
    this.slots.push(slot);
  }

  /** True when a fresh window would behave identically, so the registry may drop this one. */
  isIdleAt(now: number): boolean {
    return this.waiting.length === 0 && this.lockedUntil <= now && this.slots.every((slot) => slot.expiresAt(this.windowMs) <= now);
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
        this.timer = setTimeout(this.drain, Number.isFinite(delay) ? delay : PENDING_POLL_MS);
        return;
      }
      const slot = new Slot();
      this.hold(slot);
      parent?.hold(slot);
      this.waiting.shift()!.resolve(slot);
    }
  };
}

interface Waiter {
  resolve: (slot: Slot) => void;
  parent: (() => SlidingWindow) | undefined;
}
