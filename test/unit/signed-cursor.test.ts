import { createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../src/errors.js';
import { SignedCursors } from '../../src/services/signed-cursor.js';

const KEY = Buffer.alloc(32, 7);
const Position = z.strictObject({ at: z.string(), id: z.number().int().positive() });
const REFUSAL = 'cursor is not a nextCursor of this list';
const codecOf = (cursors: SignedCursors, label = 'things') => cursors.codec(label, Position, REFUSAL);

/** The error `decode` throws, or undefined when it opens. */
function refusal(run: () => unknown): AppError | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  return undefined;
}

describe('SignedCursors', () => {
  const codec = codecOf(new SignedCursors(KEY));
  const position = { at: '2026-03-01T00:00:00.000Z', id: 42 };
  const cursor = codec.encode('owner-1', position);

  it('opens its own cursors for the owner that got them, in base64url', () => {
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(codec.decode('owner-1', cursor)).toEqual(position);
    expect(codecOf(new SignedCursors(KEY)).decode('owner-1', cursor)).toEqual(position);
  });

  it('refuses a cursor of another owner, another list or another SECRET_KEY, with the list’s 400', () => {
    for (const run of [
      () => codec.decode('owner-2', cursor),
      () => codecOf(new SignedCursors(KEY), 'other things').decode('owner-1', cursor),
      () => codecOf(new SignedCursors(Buffer.alloc(32, 8))).decode('owner-1', cursor),
    ]) {
      const error = refusal(run);
      expect(error?.code).toBe('invalid_request');
      expect(error?.status).toBe(400);
      expect(error?.message).toBe(REFUSAL);
    }
  });

  it('refuses a cursor with any byte edited', () => {
    const bytes = Buffer.from(cursor, 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const edited = Buffer.from(bytes);
      edited[i] = edited[i]! ^ 1;
      expect(codec.open('owner-1', edited.toString('base64url'))).toBeUndefined();
    }
    expect(codec.open('owner-1', bytes.subarray(0, -1).toString('base64url'))).toBeUndefined();
    expect(codec.open('owner-1', `${cursor}AA`)).toBeUndefined();
  });

  it('refuses forged cursors: unsigned JSON, a payload signed under another key, junk', () => {
    const unsigned = Buffer.from(JSON.stringify(['things', 'owner-1', position])).toString('base64url');
    const forgedKey = Buffer.from(hkdfSync('sha256', Buffer.alloc(32), Buffer.alloc(0), 'basewatch cursor: things', 32));
    const payload = Buffer.concat([Buffer.of(1), Buffer.from(JSON.stringify({ ...position, id: 43 }))]);
    const forged = Buffer.concat([payload, createHmac('sha256', forgedKey).update(payload).digest().subarray(0, 16)]);
    for (const bad of [unsigned, forged.toString('base64url'), '', 'not a cursor!', 'A'.repeat(2000), '=']) {
      expect(refusal(() => codec.decode('owner-1', bad))?.message).toBe(REFUSAL);
    }
  });

  it('refuses a signed payload its schema rejects', () => {
    const loose = new SignedCursors(KEY).codec('things', z.unknown(), REFUSAL);
    expect(codec.open('owner-1', loose.encode('owner-1', { at: 'x', id: -1 }))).toBeUndefined();
    expect(codec.open('owner-1', loose.encode('owner-1', { ...position, extra: true }))).toBeUndefined();
    expect(codec.open('owner-1', loose.encode('owner-1', position))).toEqual(position);
  });

  it('accepts only the canonical spelling of a cursor', () => {
    // The last base64url character carries spare low bits unless the length is a multiple of 3: flip one.
    const bytes = Buffer.from(cursor, 'base64url');
    const padded = bytes.length % 3 === 0 ? codec.encode('owner-1', { ...position, at: `${position.at} ` }) : cursor;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(padded.at(-1)!);
    const respelled = `${padded.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(respelled, 'base64url')).toEqual(Buffer.from(padded, 'base64url'));
    expect(codec.open('owner-1', padded)).toBeDefined();
    expect(codec.open('owner-1', respelled)).toBeUndefined();
  });
});
