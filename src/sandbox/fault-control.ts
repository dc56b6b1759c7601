import { z } from 'zod';
import { createRandom, hashSeed, type Random } from './prng.js';
import { invalidControlSettings, type RateLimitBodyShape } from './sandbox-errors.js';

export interface FaultSettings {
  /** Probability (0..1) that a request fails with errorStatus after its latency. */
  errorRate: number;
  errorStatus: 429 | 500 | 502 | 503;
  latencyMs: number;
  /** Per base, in any sliding 1000 ms window; 0 disables the per-base limit. */
  rateLimitPerSecond: number;
  /**
   * Per user, across all of the user's tokens (the admin token: list-bases only), in any sliding 1000 ms window;
   * 0 disables it.
   */
  userRateLimitPerSecond: number;
  /** How long a base (or user) is refused after its limit was passed. */
  lockoutMs: number;
  rateLimitBody: RateLimitBodyShape;
  iteratorTtlMs: number;
}

export const faultPatchSchema = z
  .strictObject({
    errorRate: z.number().min(0).max(1),
    errorStatus: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503)]),
    latencyMs: z.number().int().min(0).max(120_000),
    rateLimitPerSecond: z.number().int().min(0),
    userRateLimitPerSecond: z.number().int().min(0),
    lockoutMs: z.number().int().min(0),
    rateLimitBody: z.enum(['error', 'errors']),
    iteratorTtlMs: z.number().int().min(0),
  })
  .partial();

export interface FaultHooks {
  /** Called on reset, to drop rate-limit windows and lock-outs. */
  onReset(): void;
  expireIterators(): number;
}

/** Run-time fault settings. The error draw is re-seeded on every change so a test run is reproducible. */
export class FaultControl {
  private current: FaultSettings;
  private random: Random;

  constructor(
    private readonly defaults: FaultSettings,
    private readonly seed: number,
    private readonly hooks: FaultHooks,
  ) {
    this.current = { ...defaults };
    this.random = createRandom(hashSeed(seed, 'faults'));
  }

  get(): FaultSettings {
    return { ...this.current };
  }

  /** Merges a partial update; throws a 400 SandboxError when it is invalid. */
  update(patch: Partial<FaultSettings>): FaultSettings {
    const parsed = faultPatchSchema.safeParse(patch ?? {});
    if (!parsed.success) throw invalidControlSettings(z.prettifyError(parsed.error));
    this.current = { ...this.current, ...parsed.data };
    this.random = createRandom(hashSeed(this.seed, 'faults'));
    return this.get();
  }

  /** Back to the sandbox options' values; also lifts every lock-out. */
  reset(): FaultSettings {
    this.current = { ...this.defaults };
    this.random = createRandom(hashSeed(this.seed, 'faults'));
    this.hooks.onReset();
    return this.get();
  }

  expireIterators(): number {
    return this.hooks.expireIterators();
  }

  drawInjectedError(): boolean {
    return this.current.errorRate > 0 && this.random() < this.current.errorRate;
  }
}
