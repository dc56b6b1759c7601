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

/**
 * The REST id of an id argument for a delete, which the service checks belongs to the caller: an item whose base the
 * account's connection no longer sees can still be deleted (requireOwned would answer not_found for it).
 */
export function restIdToDelete(id: string, type: string, label: string): string {
  const restId = restIdOf(id, type);
  if (restId === undefined) throw notFound(label);
  return restId;
}
