import { useState } from 'preact/hooks';
import { graphql, type ResultOf } from './graphql.js';

/** What the pager reads of a connection's page: spread into each paged query. */
export const PAGE_INFO_FIELDS = graphql(`
  fragment PageInfoFields on PageInfo { hasNextPage hasPreviousPage startCursor endCursor }
`);
export type PageInfo = ResultOf<typeof PAGE_INFO_FIELDS>;

export interface PageVariables {
  first?: number;
  after?: string;
  last?: number;
  before?: string;
}

/** Paging variables of a Relay connection, forward with first/after and backward with last/before. */
export function usePaging(size: number) {
  const [variables, setVariables] = useState<PageVariables>({ first: size });
  return {
    variables,
    next: (info: PageInfo) => setVariables({ first: size, after: info.endCursor ?? undefined }),
    previous: (info: PageInfo) => setVariables({ last: size, before: info.startCursor ?? undefined }),
    reset: () => setVariables({ first: size }),
  };
}

/** Previous/next buttons for a connection's page; hidden when everything fits on one page. */
export function Pager({ label, pageInfo, paging }: { label: string; pageInfo: PageInfo; paging: ReturnType<typeof usePaging> }) {
  if (!pageInfo.hasNextPage && !pageInfo.hasPreviousPage) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={!pageInfo.hasPreviousPage} onClick={() => paging.previous(pageInfo)}>
        Previous page
      </button>
      <button type="button" disabled={!pageInfo.hasNextPage} onClick={() => paging.next(pageInfo)}>
        Next page
      </button>
    </nav>
  );
}
