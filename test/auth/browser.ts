import { createHttp, type ApiResponse, type RequestOptions } from '../support/http.js';
import type { JsonBody } from '../support/json-body.js';

/** What every test sees go over the wire, to prove that no password or token comes back. */
export const seenResponses: string[] = [];

/**
 * A browser of the web application over plain HTTP: keeps the session cookie it is given (as a browser would) and
 * sends X-CSRF-Token only when asked. Every answer is checked against the OpenAPI document (createHttp).
 */
export function createBrowser(baseUrl: string) {
  const http = createHttp(baseUrl);
  const browser = {
    cookie: undefined as string | undefined,
    csrfToken: undefined as string | undefined,
    lastSetCookie: undefined as string | undefined,
    async request<T = JsonBody>(method: string, path: string, options: RequestOptions & { csrf?: boolean } = {}): Promise<ApiResponse<T>> {
      const headers: Record<string, string> = { ...options.headers };
      if (browser.cookie) headers.cookie = `basewatch_session=${browser.cookie}`;
      if (options.csrf && browser.csrfToken) headers['x-csrf-token'] = browser.csrfToken;
      const res = await http<T>(method, path, { key: null, ...options, headers });
      seenResponses.push(res.text, ...res.headers.getSetCookie());
      const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('basewatch_session='));
      browser.lastSetCookie = setCookie;
      if (setCookie) {
        const value = setCookie.slice('basewatch_session='.length).split(';')[0]!;
        browser.cookie = value && !/Expires=Thu, 01 Jan 1970/i.test(setCookie) ? value : undefined;
      }
      const body = res.body as { csrfToken?: unknown } | undefined;
      if (typeof body?.csrfToken === 'string') browser.csrfToken = body.csrfToken;
      return res;
    },
    /** A copy with the same cookie (another tab), or a stolen cookie replayed elsewhere. */
    clone() {
      const other = createBrowser(baseUrl);
      other.cookie = browser.cookie;
      other.csrfToken = browser.csrfToken;
      return other;
    },
  };
  return browser;
}

export type Browser = ReturnType<typeof createBrowser>;

let counter = 0;
export const uniqueEmail = (prefix = 'person') => `${prefix}-${Date.now()}-${++counter}@example.com`;
export const PASSWORD = 'correct horse battery';
