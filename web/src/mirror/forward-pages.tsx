import { useState } from 'preact/hooks';

/**
 * Paging over a forward-only connection (the mirror's lists page with first/after): the cursors of the pages
 * already passed are kept, so "Newer" goes back one page and "Older" asks for the next.
 */
export function useForwardPages() {
  const [afters, setAfters] = useState<string[]>([]);
  return {
    after: afters.at(-1),
    older: (cursor: string) => setAfters([...afters, cursor]),
    newer: () => setAfters(afters.slice(0, -1)),
    first: () => setAfters([]),
    onFirstPage: afters.length === 0,
  };
}

export function ForwardPager({
  label,
  pages,
  olderCursor,
}: {
  label: string;
  pages: ReturnType<typeof useForwardPages>;
  olderCursor?: string;
}) {
  if (pages.onFirstPage && !olderCursor) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" class="secondary" disabled={pages.onFirstPage} onClick={pages.newer}>
        Newer
      </button>
      <button type="button" class="secondary" disabled={!olderCursor} onClick={() => olderCursor && pages.older(olderCursor)}>
        Older
      </button>
    </nav>
  );
}
