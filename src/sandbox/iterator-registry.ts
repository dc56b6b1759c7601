import type { IdGenerator } from './id-generator.js';
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
const MAX_EXPIRED_REMEMBERED = 100_000;

/** Server-side list-records cursors, like Airtable's: an offset is only valid while its iterator lives. */
export class IteratorRegistry {
  private readonly live = new Map<string, ListIterator>();
  private readonly expired = new Set<string>();

  constructor(
    private readonly ids: IdGenerator,
    private readonly ttlMs: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  get liveCount(): number {
    return this.live.size;
  }

  start(baseId: string, tableId: string, recordIds: string[]): ListIterator {
    this.sweep();
    const iterator = { id: this.ids.next('itr'), baseId, tableId, recordIds, issued: new Map(), lastUsed: this.now() };
    this.live.set(iterator.id, iterator);
    return iterator;
  }

  /** Finds where `offset` resumes; throws INVALID_OFFSET_VALUE or LIST_RECORDS_ITERATOR_NOT_AVAILABLE. */
  resume(offset: string, baseId: string, tableId: string): { iterator: ListIterator; position: number } {
    this.sweep();
    const match = OFFSET_PATTERN.exec(offset);
    if (!match) throw invalidOffset(offset);
    const [, iteratorId, recordId] = match;
    if (this.expired.has(iteratorId)) throw iteratorNotAvailable();
    const iterator = this.live.get(iteratorId);
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
    for (const id of this.live.keys()) this.forget(id);
    return count;
  }

  private sweep(): void {
    const deadline = this.now() - this.ttlMs();
    for (const iterator of this.live.values()) {
      if (iterator.lastUsed < deadline) this.forget(iterator.id);
    }
  }

  private forget(id: string): void {
    this.live.delete(id);
    this.expired.add(id);
    if (this.expired.size > MAX_EXPIRED_REMEMBERED) {
      this.expired.delete(this.expired.values().next().value as string);
    }
  }
}
