import { expect } from 'vitest';

/** The selection of every PageInfo field. */
export const PAGE_INFO = 'pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Page<N = unknown> {
  edges: Array<{ cursor: string; node: N }>;
  pageInfo: PageInfo;
}

/**
 * The pages of a complete walk, in list order, have these sizes; only the first lacks a previous page and only the
 * last a next one; each page's start and end cursors are its first and last edges'.
 */
export function expectCompleteWalk(pages: Page[], sizes: number[]): void {
  expect(pages.map((p) => p.edges.length)).toEqual(sizes);
  expect(pages.map((p) => [p.pageInfo.hasPreviousPage, p.pageInfo.hasNextPage])).toEqual(
    pages.map((_, i) => [i > 0, i < pages.length - 1]),
  );
  for (const page of pages) {
    expect(page.pageInfo.startCursor).toBe(page.edges[0].cursor);
    expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)!.cursor);
  }
}
