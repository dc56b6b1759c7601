import { createHash } from 'node:crypto';
import type { Random } from './prng.js';

export type IdPrefix = 'app' | 'tbl' | 'fld' | 'viw' | 'rec' | 'att' | 'ach' | 'usr' | 'wsp' | 'itr' | 'sel';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 14;
const BODY_PATTERN = /^[A-Za-z0-9]{14}$/;

export interface IdGenerator {
  next(prefix: IdPrefix): string;
}

export function createIdGenerator(random: Random): IdGenerator {
  const codes = new Array<number>(3 + BODY_LENGTH);
  return {
    next(prefix) {
      for (let i = 0; i < 3; i++) codes[i] = prefix.charCodeAt(i);
      for (let i = 3; i < codes.length; i++) codes[i] = ALPHABET.charCodeAt(Math.floor(random() * ALPHABET.length));
      // One flat string: appending char by char would keep a rope of cons-strings alive per id.
      return String.fromCharCode(...codes);
    },
  };
}

/** Same text, same id: used for user ids derived from an email address. */
export function idFromText(prefix: IdPrefix, text: string): string {
  const digest = createHash('sha256').update(text).digest();
  let id: string = prefix;
  for (let i = 0; i < BODY_LENGTH; i++) id += ALPHABET[digest[i] % ALPHABET.length];
  return id;
}

export function isId(value: string, prefix: IdPrefix): boolean {
  return value.length === 3 + BODY_LENGTH && value.startsWith(prefix) && BODY_PATTERN.test(value.slice(3));
}
