/**
 * Rows shared by every operation that reads them (pages kept per version, support/versioned-pages.ts). No one
 * changes a kept row, so the executor may keep what a selection of one renders to (graphql/execution/rendered-rows.ts).
 */
const kept = new WeakSet<object>();

export function markKept(rows: readonly unknown[]): void {
  for (const row of rows) if (typeof row === 'object' && row !== null) kept.add(row);
}

export const isKept = (value: unknown): value is object => typeof value === 'object' && value !== null && kept.has(value);
