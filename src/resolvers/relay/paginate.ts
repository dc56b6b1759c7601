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
  /** Every item of the connection, whatever the cursors: read only when a client selects `totalCount`. */
  count(): Promise<number>;
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
  /** A getter: read by the field's resolver only when selected, so an unasked count costs no query. */
  readonly totalCount: Promise<number>;
}

/**
 * One page per the Relay Cursor Connections spec: the cursors bound the window, then `first` keeps its start and
 * `last` the end of what remains (both may be given: Relay's `loadPrevious` sends them together). pageInfo is exact:
 * the side being cut reads one item more, a side bounded by a cursor asks whether an item exists at or beyond it.
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
  let cutAtEnd: boolean;
  let cutAtStart: boolean;
  if (last !== undefined && first === undefined) {
    const loaded = await source.load({ after, before, limit: last + 1, from: 'end' });
    items = last === 0 ? [] : loaded.slice(-last);
    cutAtStart = loaded.length > last;
    cutAtEnd = false;
  } else {
    const size = first ?? defaultSize;
    const loaded = await source.load({ after, before, limit: size + 1, from: 'start' });
    items = loaded.slice(0, size);
    cutAtEnd = loaded.length > size;
    cutAtStart = last !== undefined && items.length > last;
    if (last !== undefined) items = last === 0 ? [] : items.slice(-last);
  }
  const hasNextPage = cutAtEnd || (before !== undefined && (await source.existsAtOrAfter(before)));
  const hasPreviousPage = cutAtStart || (after !== undefined && (await source.existsAtOrBefore(after)));
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
    get totalCount() {
      return source.count();
    },
  };
}

function pageSize(args: PagingArgs): { first?: number; last?: number } {
  const first = args.first ?? undefined;
  const last = args.last ?? undefined;
  for (const [name, value] of [
    ['first', first],
    ['last', last],
  ] as const) {
    if (value !== undefined && (value < 0 || value > MAX_PAGE_SIZE)) {
      throw invalidRequest(`${name} must be between 0 and ${MAX_PAGE_SIZE}`);
    }
  }
  return { first, last };
}
