import { invalidRequest } from '../../errors.js';
import type { CursorCodec } from './cursor.js';

/** Page size ceiling of every connection. */
export const MAX_PAGE_SIZE = 100;

export interface PagingArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** Items strictly between two keys (either may be open), in the connection's order. */
export interface KeysetWindow<K> {
  after?: K;
  before?: K;
  limit: number;
  /** The first `limit` items of the window, or its last `limit` (still returned in connection order). */
  from: 'start' | 'end';
}

/** What a connection pages over: keyset reads in the connection's order, so pages hold while items come and go. */
export interface KeysetSource<T, K> {
  load(window: KeysetWindow<K>): Promise<T[]>;
  /** Whether an item exists at `key` or before it (used for hasPreviousPage after a cursor). */
  existsAtOrBefore(key: K): Promise<boolean>;
  /** Whether an item exists at `key` or after it (used for hasNextPage before a cursor). */
  existsAtOrAfter(key: K): Promise<boolean>;
  keyOf(item: T): K;
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Connection<T> {
  edges: Array<{ cursor: string; node: T }>;
  nodes: T[];
  pageInfo: PageInfo;
}

/**
 * One page per the Relay Cursor Connections spec: `first`/`after` forward, `last`/`before` backward, both cursors
 * bound the window. pageInfo is exact: the side being paged reads one item more, the other side asks whether an
 * item exists at or beyond its cursor.
 */
export async function paginate<T, K>(
  args: PagingArgs,
  source: KeysetSource<T, K>,
  cursors: CursorCodec<K>,
  defaultSize: number,
): Promise<Connection<T>> {
  const { first, last } = pageSize(args);
  const after = args.after == null ? undefined : cursors.decode(args.after, 'after');
  const before = args.before == null ? undefined : cursors.decode(args.before, 'before');
  let items: T[];
  let hasNextPage: boolean;
  let hasPreviousPage: boolean;
  if (last !== undefined) {
    const loaded = await source.load({ after, before, limit: last + 1, from: 'end' });
    items = last === 0 ? [] : loaded.slice(-last);
    hasPreviousPage = loaded.length > last;
    hasNextPage = before !== undefined && (await source.existsAtOrAfter(before));
  } else {
    const size = first ?? defaultSize;
    const loaded = await source.load({ after, before, limit: size + 1, from: 'start' });
    items = loaded.slice(0, size);
    hasNextPage = loaded.length > size;
    hasPreviousPage = after !== undefined && (await source.existsAtOrBefore(after));
  }
  const edges = items.map((node) => ({ cursor: cursors.encode(source.keyOf(node)), node }));
  return {
    edges,
    nodes: items,
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

function pageSize(args: PagingArgs): { first?: number; last?: number } {
  const first = args.first ?? undefined;
  const last = args.last ?? undefined;
  if (first !== undefined && last !== undefined) throw invalidRequest('Pass first or last, not both');
  for (const [name, value] of [['first', first], ['last', last]] as const) {
    if (value !== undefined && (value < 0 || value > MAX_PAGE_SIZE)) {
      throw invalidRequest(`${name} must be between 0 and ${MAX_PAGE_SIZE}`);
    }
  }
  return { first, last };
}
