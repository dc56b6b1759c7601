import { describe, expect, it } from 'vitest';
import { withLoggedChange } from '../../web/src/audit/logged-change.js';

const change = (id: string, occurredAt: string) => ({ id, occurredAt });
const page = (nodes: Array<{ id: string; occurredAt: string }>, hasNextPage = false) => ({
  totalCount: nodes.length + (hasNextPage ? 10 : 0),
  pageInfo: { hasNextPage },
  nodes,
});

describe('withLoggedChange: a pushed change on the change browser’s first page', () => {
  it('goes in by its time, newest first, and counts', () => {
    const first = page([change('c', '2026-01-03T00:00:00.000Z'), change('a', '2026-01-01T00:00:00.000Z')]);
    expect(withLoggedChange(first, change('d', '2026-01-04T00:00:00.000Z'))).toEqual({
      ...first,
      totalCount: 3,
      nodes: [change('d', '2026-01-04T00:00:00.000Z'), ...first.nodes],
    });
    expect(withLoggedChange(first, change('b', '2026-01-02T00:00:00.000Z')).nodes.map((c) => c.id)).toEqual(['c', 'b', 'a']);
    expect(withLoggedChange(page([]), change('x', '2026-01-02T00:00:00.000Z'))).toMatchObject({ totalCount: 1, nodes: [{ id: 'x' }] });
  });

  it('is not shown twice, and one older than a page with more after it only counts', () => {
    const first = page([change('c', '2026-01-03T00:00:00.000Z')], true);
    expect(withLoggedChange(first, change('c', '2026-01-03T00:00:00.000Z'))).toBe(first);
    expect(withLoggedChange(first, change('a', '2026-01-01T00:00:00.000Z'))).toEqual({ ...first, totalCount: first.totalCount + 1 });
  });
});
