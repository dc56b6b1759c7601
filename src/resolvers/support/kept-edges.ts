import type { CursorCodec } from '../relay/cursor.js';
import { isKept, markKept } from './kept-rows.js';

export interface Edge<T> {
  cursor: string;
  node: T;
}

/** The edge of a kept row, per cursor codec name: made once, and kept as the row is (so it renders once too). */
const keptEdges = new WeakMap<object, { codec: string; edge: Edge<unknown> }>();

/** A connection's edge for `node`; a kept row's edge is kept with it, its cursor encoded once. */
export function edgeOf<T, K>(node: T, cursors: CursorCodec<K>, keyOf: (node: T) => K): Edge<T> {
  if (!isKept(node)) return { cursor: cursors.encode(keyOf(node)), node };
  const kept = keptEdges.get(node);
  if (kept?.codec === cursors.name) return kept.edge as Edge<T>;
  const edge = { cursor: cursors.encode(keyOf(node)), node };
  markKept([edge]);
  keptEdges.set(node, { codec: cursors.name, edge });
  return edge;
}
