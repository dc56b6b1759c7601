import { LRUCache } from 'lru-cache';

interface Entry {
  value: unknown;
  /** Estimated size in memory. */
  bytes: number;
}

/** Keys read once recently: the next read of one of them keeps its value. */
const ADMIT_WITHIN = 256;

/**
 * The hot read models (snapshot pages, change pages), kept once for every transport under keys that name the entity
 * version they were read at: a write bumps the version in its transaction, so an entry of an older version is never
 * asked for again and ages out. One budget in bytes (CACHE_MAX_MB) for all of them; 0 keeps nothing.
 *
 * A value is kept from its key's second read within the last ADMIT_WITHIN keys read: a walk through more pages than
 * the budget holds would otherwise fill it with pages evicted unused, and that churn costs garbage-collector pauses
 * in every request's tail without saving a single read.
 */
export class ReadModelCache {
  private readonly entries: LRUCache<string, Entry> | undefined;
  private readonly seenOnce = new LRUCache<string, true>({ max: ADMIT_WITHIN });

  constructor(maxBytes: number) {
    this.entries =
      maxBytes > 0 ? new LRUCache({ maxSize: maxBytes, sizeCalculation: (entry, key) => key.length + entry.bytes }) : undefined;
  }

  /** The value kept under `key`, else what `read` gives, kept at the size `bytesOf` estimates. */
  async get<T>(key: string, read: () => Promise<T>, bytesOf: (value: T) => number): Promise<T> {
    const kept = this.peek<T>(key);
    if (kept !== undefined) return kept;
    const value = await read();
    this.set(key, value, bytesOf(value));
    return value;
  }

  peek<T>(key: string): T | undefined {
    return this.entries?.get(key)?.value as T | undefined;
  }

  /** Keeps a value just read, if its key was read once recently (see above). */
  set(key: string, value: unknown, bytes: number): void {
    if (!this.entries) return;
    if (this.seenOnce.delete(key)) this.entries.set(key, { value, bytes: Math.max(1, Math.ceil(bytes)) });
    else this.seenOnce.set(key, true);
  }
}
