import type { IteratorIds } from './iterator-ids.js';
import { invalidOffset, iteratorNotAvailable } from './sandbox-errors.js';

export interface ListIterator {
  id: string;
  baseId: string;
  tableId: string;
  /** The listing's order, fixed when it started; records created later are not part of it. */
  recordIds: string[];
  /** Last record of each page handed out → where the next page starts. */
  issued: Map<string, number>;
  lastUsed: number;
}

const OFFSET_PATTERN = /^(itr[A-Za-z0-9]{14})\/(rec[A-Za-z0-9]{14})$/;

/**
 * Server-side list-records cursors, like Airtable's: an offset is only valid while its iterator lives. Iterators
 * live in memory only; their ids are signed (IteratorIds), so an offset from a forgotten iterator, also one from
 * before a restart, is told apart from a made-up one without remembering it.
 */
export class IteratorRegistry {
  private readonly live = new Map<string, ListIterator>();

  constructor(
    private readonly ids: IteratorIds,
    private readonly ttlMs: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  get liveCount(): number {
    return this.live.size;
  }

  start(baseId: string, tableId: string, recordIds: string[]): ListIterator {
    this.sweep();
    const iterator = { id: this.ids.mint(baseId, tableId), baseId, tableId, recordIds, issued: new Map(), lastUsed: this.now() };
    this.live.set(iterator.id, iterator);
    return iterator;
  }

  /** Finds where `offset` resumes; throws INVALID_OFFSET_VALUE or LIST_RECORDS_ITERATOR_NOT_AVAILABLE. */
  resume(offset: string, baseId: string, tableId: string): { iterator: ListIterator; position: number } {
    this.sweep();
    const match = OFFSET_PATTERN.exec(offset);
    if (!match) throw invalidOffset(offset);
    const [, iteratorId, recordId] = match;
    const iterator = this.live.get(iteratorId);
    if (!iterator && this.ids.isGenuine(iteratorId, baseId, tableId)) throw iteratorNotAvailable();
    const position = iterator?.issued.get(recordId);
    if (!iterator || position === undefined || iterator.baseId !== baseId || iterator.tableId !== tableId) {
      throw invalidOffset(offset);
    }
    iterator.lastUsed = this.now();
    return { iterator, position };
  }

  issue(iterator: ListIterator, lastRecordId: string, nextPosition: number): string {
    iterator.issued.set(lastRecordId, nextPosition);
    iterator.lastUsed = this.now();
    return `${iterator.id}/${lastRecordId}`;
  }

  expireAll(): number {
    const count = this.live.size;
    this.live.clear();
    return count;
  }

  private sweep(): void {
    const deadline = this.now() - this.ttlMs();
    for (const iterator of this.live.values()) {
      if (iterator.lastUsed < deadline) this.live.delete(iterator.id);
    }
  }
}
