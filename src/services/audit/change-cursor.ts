import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { invalidRequest } from '../../errors.js';

/** Where a page of changes ended: the last entry's occurrence time and id (the order is (occurredAt, id) descending). */
export interface ChangePosition {
  occurredAt: string;
  id: number;
}

const VERSION = 1;
const INT_BYTES = 6;
const MAC_BYTES = 16;
const PAYLOAD_BYTES = 1 + 2 * INT_BYTES;
const CURSOR_BYTES = PAYLOAD_BYTES + MAC_BYTES;

/**
 * Opaque keyset cursors of GET …/changes: `base64url(version, occurredAt in ms, id, MAC)`, where the MAC (HMAC-SHA256
 * truncated to 128 bits, under a key derived from SECRET_KEY) covers the config id and the payload. So a cursor only
 * opens for the config that issued it, and an edited or made-up one is refused, without storing anything.
 */
export class ChangeCursorCodec {
  private readonly key: Buffer;

  constructor(secretKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'basewatch change cursor v1', 32));
  }

  encode(configId: string, position: ChangePosition): string {
    const payload = Buffer.alloc(PAYLOAD_BYTES);
    payload.writeUInt8(VERSION, 0);
    payload.writeUIntBE(Date.parse(position.occurredAt), 1, INT_BYTES);
    payload.writeUIntBE(position.id, 1 + INT_BYTES, INT_BYTES);
    return Buffer.concat([payload, this.mac(configId, payload)]).toString('base64url');
  }

  /** The position in a cursor this config issued; a 400 for anything else. */
  decode(configId: string, cursor: string): ChangePosition {
    const bytes = Buffer.from(cursor, 'base64url');
    // Decoding is lenient (stray characters, spare low bits): only the canonical spelling of the bytes counts.
    if (bytes.length !== CURSOR_BYTES || bytes.toString('base64url') !== cursor || bytes.readUInt8(0) !== VERSION) {
      throw badCursor();
    }
    const payload = bytes.subarray(0, PAYLOAD_BYTES);
    if (!timingSafeEqual(bytes.subarray(PAYLOAD_BYTES), this.mac(configId, payload))) throw badCursor();
    return {
      occurredAt: new Date(payload.readUIntBE(1, INT_BYTES)).toISOString(),
      id: payload.readUIntBE(1 + INT_BYTES, INT_BYTES),
    };
  }

  private mac(configId: string, payload: Buffer): Buffer {
    return createHmac('sha256', this.key).update(configId).update('\u0000').update(payload).digest().subarray(0, MAC_BYTES);
  }
}

const badCursor = () => invalidRequest('cursor is not a nextCursor of this config’s changes');
