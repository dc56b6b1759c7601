import { assertMatchesOpenApi } from './openapi-validator.js';
import type { JsonBody } from './json-body.js';

export interface ApiResponse<T = JsonBody> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  /** Sent as JSON unless `raw` is given. */
  body?: unknown;
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

/**
 * A tiny client for the app under test. Every response it sees is checked against the OpenAPI document, so the
 * whole integration suite proves the document describes the real responses.
 */
export function createHttp(baseUrl: string, defaultKey?: string) {
  return async function http<T = JsonBody>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const key = options.key === undefined ? defaultKey : options.key;
    const headers: Record<string, string> = { ...options.headers };
    if (key) headers.authorization ??= `Bearer ${key}`;
    let payload: string | Buffer | undefined = options.raw;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    } else if (options.raw !== undefined) {
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body: payload, redirect: 'manual' });
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.includes('application/json');
    const body = text && isJson ? JSON.parse(text) : text || undefined;
    assertMatchesOpenApi(method, path, response.status, body);
    return { status: response.status, headers: response.headers, body, text };
  };
}

export type Http = ReturnType<typeof createHttp>;
