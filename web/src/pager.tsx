import { useState } from 'preact/hooks';

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

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
