/** The nodes and total of a first page of changes, as the change browser's query answers them (newest first). */
export interface ChangePage<C extends { id: string; occurredAt: string }> {
  totalCount: number;
  pageInfo: { hasNextPage: boolean };
  nodes: C[];
}

/**
 * The first page with a change pushed by `changeLogged` in its place, newest first. Unfiltered only: the server
 * decides what a filter matches, so a filtered page asks again instead. Already shown (the query and the event
 * crossed): unchanged. Older than the page's last change while more pages follow: it belongs to a later page, so
 * only the total grows. The page keeps its end cursor, so "Older" still continues after the last change it had.
 */
export function withLoggedChange<C extends { id: string; occurredAt: string }, P extends ChangePage<C>>(page: P, change: C): P {
  if (page.nodes.some((shown) => shown.id === change.id)) return page;
  const at = page.nodes.findIndex((shown) => shown.occurredAt < change.occurredAt);
  if (at === -1 && page.pageInfo.hasNextPage) return { ...page, totalCount: page.totalCount + 1 };
  const nodes = at === -1 ? [...page.nodes, change] : [...page.nodes.slice(0, at), change, ...page.nodes.slice(at)];
  return { ...page, totalCount: page.totalCount + 1, nodes };
}
