import { z } from 'zod';
import { arraySource, compareTuples } from './array-source.js';
import type { SignedCursors } from '../../services/signed-cursor.js';
import { cursorCodec, type CursorCodec } from './cursor.js';
import type { KeysetSource } from './paginate.js';

/** An item of one of the account's own lists (usage bases, monitoring configs, webhooks, API keys), oldest first. */
interface Listed {
  createdAt: Date;
  restId: string;
}

const CreationKey = z.tuple([z.iso.datetime({ precision: 3 }), z.string().min(1)]);
type CreationKey = z.infer<typeof CreationKey>;

export type AccountList = 'usage-bases' | 'monitoring-configs' | 'webhooks' | 'api-keys';

/**
 * Cursors of an account's list, keyed by creation instant and id. A filter (webhooks by base) only narrows the list,
 * so its cursors are the list's own: the edge a create mutation returns pages in every such connection.
 */
export const accountListCursors = (cursors: SignedCursors, list: AccountList, accountId: string): CursorCodec<CreationKey> =>
  cursorCodec(cursors, list, accountId, CreationKey);

export const accountListSource = <T extends Listed>(items: T[]): KeysetSource<T, CreationKey> =>
  arraySource(items, creationKey, compareTuples);

/** The edge of a new item, for Relay's @appendEdge: a cursor of the list it joins, and the node. */
export const accountListEdge = <T extends Listed>(cursors: SignedCursors, list: AccountList, accountId: string, node: T) => ({
  cursor: accountListCursors(cursors, list, accountId).encode(creationKey(node)),
  node,
});

const creationKey = (item: Listed): CreationKey => [item.createdAt.toISOString(), item.restId];
