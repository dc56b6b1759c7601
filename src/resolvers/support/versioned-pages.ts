import { LRUCache } from 'lru-cache';

/**
 * Pages of rows kept under the version of what they were read from (a base's snapshotVersion, a config's
 * changesVersion: bumped in the transaction of every write to those rows), as REST keeps its rendered pages: a key
 * names the version the request read first, so a kept page is never older than what the caller already saw.
 */
export class VersionedPages<T> {
  private readonly pages: LRUCache<string, { rows: T[] }>;

  constructor(maxBytes: number, bytesOf: (rows: T[]) => number) {
    this.pages = new LRUCache({ maxSize: maxBytes, sizeCalculation: (page) => Math.max(1, bytesOf(page.rows)) });
  }

  async get(key: string, read: () => Promise<T[]>): Promise<T[]> {
    const kept = this.pages.get(key);
    if (kept) return kept.rows;
    const rows = await read();
    this.pages.set(key, { rows });
    return rows;
  }
}

/** One set of pages per owner (the service instance the rows come from), so apps in one process never share them. */
export function pagesOf<T>(owners: WeakMap<object, VersionedPages<T>>, owner: object, create: () => VersionedPages<T>): VersionedPages<T> {
  let pages = owners.get(owner);
  if (!pages) owners.set(owner, (pages = create()));
  return pages;
}
