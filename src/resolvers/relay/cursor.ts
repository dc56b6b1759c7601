import type { ZodType } from 'zod';
import { invalidRequest } from '../../errors.js';

/** Opaque cursors of one connection: they carry its kind and scope, so a cursor of another list is refused. */
export interface CursorCodec<K> {
  /** The connection's kind and scope: one key encodes to the same cursor in every codec with this name. */
  readonly name: string;
  encode(key: K): string;
  /** The key of a cursor; `invalid_request` for a forged one or one of another connection. */
  decode(cursor: string, argument: string): K;
}

/** `scope` names the list the cursor belongs to (the account for its bases, the base for its snapshot days). */
export function cursorCodec<K>(kind: string, scope: string, key: ZodType<K>): CursorCodec<K> {
  return {
    name: JSON.stringify([kind, scope]),
    encode: (value) => Buffer.from(JSON.stringify([kind, scope, value]), 'utf8').toString('base64url'),
    decode: (cursor, argument) => {
      const parts = parseCursor(cursor);
      const parsed = parts && parts[0] === kind && parts[1] === scope ? key.safeParse(parts[2]) : undefined;
      if (!parsed?.success) throw invalidRequest(`${argument}: not a cursor of this connection`);
      return parsed.data;
    },
  };
}

function parseCursor(cursor: string): unknown[] | undefined {
  if (!/^[A-Za-z0-9_-]{1,1000}$/.test(cursor)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(value) && value.length === 3 ? value : undefined;
  } catch {
    return undefined;
  }
}
