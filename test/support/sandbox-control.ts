import { expect } from 'vitest';
import { DEFAULT_SANDBOX_TOKEN } from '../../src/config.js';
import type { JsonBody } from './json-body.js';

/** The sandbox's control API of the app at `baseUrl` (users, bases, tokens, consent), with its admin token. */
export function sandboxControl(baseUrl: string) {
  return async function control<T = JsonBody>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${baseUrl}/sandbox/airtable/_control/${path}`, {
      method,
      headers: { authorization: `Bearer ${DEFAULT_SANDBOX_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };
}
