import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { z, type ZodType } from 'zod';
import { invalidRequest } from '../errors.js';

const VERSION = 1;
const MAC_BYTES = 16;
/** Longer cursors are refused before any work (the longest issued, a GraphQL delivery position, is about 130). */
const MAX_CURSOR_CHARS = 1000;

/**
 * Opaque cursors of one list: `base64url(version, JSON of the position, MAC)`. The MAC (HMAC-SHA256 truncated to
 * 128 bits, under a key derived from SECRET_KEY and the list's label) covers the owner (the scope the list belongs
 * to: an account, a config, a webhook) and the payload. So a cursor opens only for the list and owner that issued it,
 * and an edited or made-up one is refused, without storing anything. The position's schema checks what a cursor holds.
 */
export class SignedCursorCodec<T> {
  /** `key` is the list's own (SignedCursors derives it); `refusal` is the 400's message for a cursor that does not open. */
  constructor(
    private readonly key: Buffer,
    private readonly position: ZodType<T>,
    private readonly refusal: string,
  ) {}

  encode(owner: string, position: T): string {
    const payload = Buffer.concat([Buffer.of(VERSION), Buffer.from(JSON.stringify(position), 'utf8')]);
    return Buffer.concat([payload, this.mac(owner, payload)]).toString('base64url');
  }

  /** The position in a cursor this owner's list issued; `invalid_request` with the list's message for anything else. */
  decode(owner: string, cursor: string): T {
    const position = this.open(owner, cursor);
    if (position === undefined) throw invalidRequest(this.refusal);
    return position;
  }

  /** The position in a cursor this owner's list issued, or undefined (for callers with their own message). */
  open(owner: string, cursor: string): T | undefined {
    if (cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
    const bytes = Buffer.from(cursor, 'base64url');
    // Decoding is lenient (spare low bits): only the canonical spelling of the bytes counts.
    if (bytes.length <= 1 + MAC_BYTES || bytes.toString('base64url') !== cursor || bytes[0] !== VERSION) return undefined;
    const payload = bytes.subarray(0, bytes.length - MAC_BYTES);
    if (!timingSafeEqual(bytes.subarray(payload.length), this.mac(owner, payload))) return undefined;
    const parsed = this.position.safeParse(parseJson(payload.subarray(1)));
    return parsed.success ? parsed.data : undefined;
  }

  private mac(owner: string, payload: Buffer): Buffer {
    const ownerBytes = Buffer.from(owner, 'utf8');
    const ownerLength = Buffer.alloc(4);
    ownerLength.writeUInt32BE(ownerBytes.length);
    return createHmac('sha256', this.key).update(ownerLength).update(ownerBytes).update(payload).digest().subarray(0, MAC_BYTES);
  }
}

/** A position in an integer sequence (a webhook's delivery log, an account's usage alerts). */
export const SEQ_POSITION = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Hands out each list's codec under the deployment's SECRET_KEY (services and resolvers alike get theirs here). */
export class SignedCursors {
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly secretKey: Buffer) {}

  /** The codec of the list named `label` (one label per list: its cursors open nowhere else). */
  codec<T>(label: string, position: ZodType<T>, refusal: string): SignedCursorCodec<T> {
    return new SignedCursorCodec(this.keyOf(label), position, refusal);
  }

  private keyOf(label: string): Buffer {
    let key = this.keys.get(label);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.secretKey, Buffer.alloc(0), `basewatch cursor: ${label}`, 32));
      this.keys.set(label, key);
    }
    return key;
  }
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}
