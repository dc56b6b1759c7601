import { createHash, createHmac } from 'node:crypto';
import type { IdGenerator } from './id-generator.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 9;
const TAG_LENGTH = 5;

/**
 * List-records iterator ids that prove where they came from: `itr` + 9 random characters + a 5-character tag, an
 * HMAC of the random part and the listing's base and table under a key kept in the state file. An offset whose
 * iterator is gone (idle too long, or the sandbox restarted) but whose tag checks out was made by this sandbox for
 * this table: it has expired (LIST_RECORDS_ITERATOR_NOT_AVAILABLE) rather than been made up (INVALID_OFFSET_VALUE).
 */
export class IteratorIds {
  constructor(
    private readonly ids: IdGenerator,
    private readonly key: string,
  ) {}

  mint(baseId: string, tableId: string): string {
    const head = this.ids.next('itr').slice(0, 3 + RANDOM_LENGTH);
    return head + this.tag(head, baseId, tableId);
  }

  /** True when `iteratorId` was minted by this sandbox (any incarnation sharing its state) for this base and table. */
  isGenuine(iteratorId: string, baseId: string, tableId: string): boolean {
    const head = iteratorId.slice(0, 3 + RANDOM_LENGTH);
    return iteratorId.length === head.length + TAG_LENGTH && iteratorId.slice(head.length) === this.tag(head, baseId, tableId);
  }

  private tag(head: string, baseId: string, tableId: string): string {
    const digest = createHmac('sha256', this.key).update(`${head}\u0000${baseId}\u0000${tableId}`).digest();
    let tag = '';
    for (let i = 0; i < TAG_LENGTH; i++) tag += ALPHABET[digest[i]! % ALPHABET.length];
    return tag;
  }
}

/** The key of a sandbox whose state has none yet: derived from its seed, so the demo stays deterministic. */
export function iteratorKeyFromSeed(seed: number): string {
  return createHash('sha256').update(`basewatch-sandbox-iterators\u0000${seed}`).digest('base64url');
}
