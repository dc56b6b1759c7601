import type { ZodType } from 'zod';
import { invalidRequest } from '../../errors.js';
import type { SignedCursors } from '../../services/signed-cursor.js';

/** Opaque cursors of one connection: signed for its kind and scope, so a cursor of another list is refused. */
export interface CursorCodec<K> {
  encode(key: K): string;
  /** The key of a cursor; `invalid_request` for a forged one or one of another connection. */
  decode(cursor: string, argument: string): K;
}

/** `scope` names the list the cursor belongs to (the account for its bases, the base for its snapshot days). */
export function cursorCodec<K>(cursors: SignedCursors, kind: string, scope: string, key: ZodType<K>): CursorCodec<K> {
  const codec = cursors.codec(`connection ${kind}`, key, 'not a cursor of this connection');
  return {
    encode: (value) => codec.encode(scope, value),
    decode: (cursor, argument) => {
      const value = codec.open(scope, cursor);
      if (value === undefined) throw invalidRequest(`${argument}: not a cursor of this connection`);
      return value;
    },
  };
}
