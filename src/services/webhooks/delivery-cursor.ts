import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { invalidRequest } from '../../errors.js';

const VERSION = 1;
const SEQ_BYTES = 6;
const MAC_BYTES = 16;
const PAYLOAD_BYTES = 1 + SEQ_BYTES;

/**
 * Opaque keyset cursors of GET /webhooks/{id}/deliveries: `base64url(version, seq, MAC)`. The MAC (under a key
 * derived from SECRET_KEY) covers the webhook id, so a cursor only opens for the webhook that issued it and an
 * edited or made-up one is refused, without storing anything.
 */
export class DeliveryCursorCodec {
  private readonly key: Buffer;

  constructor(secretKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'basewatch delivery cursor v1', 32));
  }

  encode(webhookId: string, seq: number): string {
    const payload = Buffer.alloc(PAYLOAD_BYTES);
    payload.writeUInt8(VERSION, 0);
    payload.writeUIntBE(seq, 1, SEQ_BYTES);
    return Buffer.concat([payload, this.mac(webhookId, payload)]).toString('base64url');
  }

  /** The position in a cursor this webhook's log issued; a 400 for anything else. */
  decode(webhookId: string, cursor: string): number {
    const bytes = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url') : Buffer.alloc(0);
    if (bytes.length !== PAYLOAD_BYTES + MAC_BYTES || bytes.readUInt8(0) !== VERSION) throw badCursor();
    const payload = bytes.subarray(0, PAYLOAD_BYTES);
    if (!timingSafeEqual(bytes.subarray(PAYLOAD_BYTES), this.mac(webhookId, payload))) throw badCursor();
    return payload.readUIntBE(1, SEQ_BYTES);
  }

  private mac(webhookId: string, payload: Buffer): Buffer {
    return createHmac('sha256', this.key).update(webhookId).update('\u0000').update(payload).digest().subarray(0, MAC_BYTES);
  }
}

const badCursor = () => invalidRequest('cursor is not a nextCursor of this webhook’s deliveries');
