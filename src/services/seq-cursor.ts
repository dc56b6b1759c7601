import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { invalidRequest } from '../errors.js';

const VERSION = 1;
const SEQ_BYTES = 6;
const MAC_BYTES = 16;
const PAYLOAD_BYTES = 1 + SEQ_BYTES;

/**
 * Opaque keyset cursors over an integer sequence (a webhook's delivery log, an account's usage alerts):
 * `base64url(version, seq, MAC)`. The MAC (under a key derived from SECRET_KEY and the list's label) covers the
 * owner's id, so a cursor only opens for the list that issued it and an edited or made-up one is refused, without
 * storing anything.
 */
export class SeqCursorCodec {
  private readonly key: Buffer;

  /** `label` keeps the lists' cursors apart; `refusal` is the 400's message for a cursor that does not open. */
  constructor(
    secretKey: Buffer,
    label: string,
    private readonly refusal: string,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), label, 32));
  }

  encode(ownerId: string, seq: number): string {
    const payload = Buffer.alloc(PAYLOAD_BYTES);
    payload.writeUInt8(VERSION, 0);
    payload.writeUIntBE(seq, 1, SEQ_BYTES);
    return Buffer.concat([payload, this.mac(ownerId, payload)]).toString('base64url');
  }

  /** The position in a cursor this owner's list issued; a 400 for anything else. */
  decode(ownerId: string, cursor: string): number {
    const bytes = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url') : Buffer.alloc(0);
    if (bytes.length !== PAYLOAD_BYTES + MAC_BYTES || bytes.readUInt8(0) !== VERSION) throw invalidRequest(this.refusal);
    const payload = bytes.subarray(0, PAYLOAD_BYTES);
    if (!timingSafeEqual(bytes.subarray(PAYLOAD_BYTES), this.mac(ownerId, payload))) throw invalidRequest(this.refusal);
    return payload.readUIntBE(1, SEQ_BYTES);
  }

  private mac(ownerId: string, payload: Buffer): Buffer {
    return createHmac('sha256', this.key).update(ownerId).update('\u0000').update(payload).digest().subarray(0, MAC_BYTES);
  }
}

/** Cursors of GET /webhooks/{id}/deliveries (the label of the first version, so cursors issued before stay valid). */
export const deliveryCursorCodec = (secretKey: Buffer) =>
  new SeqCursorCodec(secretKey, 'basewatch delivery cursor v1', 'cursor is not a nextCursor of this webhook’s deliveries');

/** Cursors of GET /usage/alerts. */
export const usageAlertCursorCodec = (secretKey: Buffer) =>
  new SeqCursorCodec(secretKey, 'basewatch usage alert cursor v1', 'cursor is not a nextCursor of your usage alerts');
