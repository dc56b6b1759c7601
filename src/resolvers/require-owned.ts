import type DataLoader from 'dataloader';
import { notFound } from '../errors.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { restIdOf } from './relay/global-id.js';

/** The caller's object of a node type for an id argument (global or REST id); `not_found` naming `label` otherwise. */
export async function requireOwned<T extends { accountId: string }>(
  context: GraphqlContext,
  id: string,
  type: string,
  label: string,
  loader: DataLoader<string, T | null>,
): Promise<T> {
  const account = requireAccount(context);
  const restId = restIdOf(id, type);
  const found = restId === undefined ? null : await loader.load(restId);
  if (!found || found.accountId !== account.id) throw notFound(label);
  return found;
}
