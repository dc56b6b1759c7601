/** What both count benches share: the upstream's page size, the sandbox they count against, and the wall target. */
export const ATTACHMENTS_PER_RECORD = 2;
export const PAGE_SIZE = 100;
/** 5 requests/s per base with a 30 s lock-out after a 429, and 300 ms of latency on every answer. */
export const SANDBOX = { latencyMs: 300, rateLimitPerSecond: 5, lockoutMs: 30_000 };
/** Wall time of a count at most this many times its floor (minimum requests at 5/s, plus latency). */
export const WALL_TARGET_FACTOR = 1.1;
