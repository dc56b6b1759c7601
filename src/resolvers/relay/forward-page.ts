import { ArgsType, Field, Int } from 'type-graphql';
import { invalidRequest } from '../../errors.js';
import type { CursorCodec } from './cursor.js';
import { MAX_PAGE_SIZE, type Connection } from './paginate.js';

/** first/after only: lists their service pages forward (the Relay spec makes last/before optional). */
@ArgsType()
export class ForwardConnectionArgs {
  @Field(() => Int, { nullable: true, description: `Items from the start of the window (0–${MAX_PAGE_SIZE}); default 50` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Only items after this cursor' })
  after?: string | null;
}

/** A list that pages forward from a position (each item's key is one), in the connection's order. */
export interface ForwardSource<T, K> {
  /** Up to `limit` items after `after` (from the start without it). */
  load(limit: number, after?: K): Promise<T[]>;
  keyOf(item: T): K;
  /** Whether `a` is `b` or comes before it in the connection's order. */
  atOrBefore(a: K, b: K): boolean;
  /** Every item of the connection, whatever the cursors: read only when a client selects `totalCount`. */
  count(): Promise<number>;
}

/**
 * One forward page per the Relay Cursor Connections spec, with exact pageInfo: one item more than the page tells
 * hasNextPage; after a cursor, hasPreviousPage asks whether the list's first item is at or before it.
 */
export async function forwardPage<T, K>(
  args: { first?: number | null; after?: string | null },
  source: ForwardSource<T, K>,
  cursors: CursorCodec<K>,
  defaultSize: number,
): Promise<Connection<T>> {
  const first = args.first ?? defaultSize;
  if (first < 0 || first > MAX_PAGE_SIZE) throw invalidRequest(`first must be between 0 and ${MAX_PAGE_SIZE}`);
  const after = args.after == null ? undefined : cursors.decode(args.after, 'after');
  const loaded = await source.load(first + 1, after);
  const items = loaded.slice(0, first);
  const head = after === undefined ? undefined : (await source.load(1))[0];
  const edges = items.map((node) => ({ cursor: cursors.encode(source.keyOf(node)), node }));
  return {
    edges,
    nodes: items,
    pageInfo: {
      hasNextPage: loaded.length > first,
      hasPreviousPage: head !== undefined && after !== undefined && source.atOrBefore(source.keyOf(head), after),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    get totalCount() {
      return source.count();
    },
  };
}
