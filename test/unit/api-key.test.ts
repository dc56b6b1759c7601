import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, generateApiKey, hashApiKey, parseAuthorizationHeader } from '../../src/services/credentials/api-key.js';

describe('API keys', () => {
  it('generates distinct sk_ keys with 43 base62 characters', () => {
    const keys = new Set(Array.from({ length: 100 }, generateApiKey));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^sk_[0-9A-Za-z]{43}$/);
  });

  it('reads the Bearer and the bare form, and nothing else', () => {
    const key = generateApiKey();
    expect(parseAuthorizationHeader(`Bearer ${key}`)).toBe(key);
    expect(parseAuthorizationHeader(`bearer ${key}`)).toBe(key);
    expect(parseAuthorizationHeader(key)).toBe(key);
    expect(parseAuthorizationHeader(`Basic ${key}`)).toBeUndefined();
    expect(parseAuthorizationHeader('Bearer sk_short')).toBeUndefined();
    expect(parseAuthorizationHeader(undefined)).toBeUndefined();
    expect(API_KEY_PATTERN.test(key)).toBe(true);
  });

  it('hashes to hex SHA-256, never storing the key', () => {
    expect(hashApiKey('sk_x')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey('sk_x')).not.toContain('sk_x');
  });
});
