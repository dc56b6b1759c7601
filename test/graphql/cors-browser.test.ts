import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { CHROMIUM_FLAGS, NO_CHROMIUM, chromiumExecutable } from './support/chromium.js';

/**
 * A browser app on another origin calls /graphql with fetch and an API key: two page servers on their own ports
 * (two origins), the first of them in CORS_ORIGINS.
 */
let listedPage: { server: Server; origin: string };
let unlistedPage: { server: Server; origin: string };
let app: TestApp;
let browser: Browser | undefined;

async function servePage(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>frontend</title><p>frontend</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  if (!chromiumExecutable) return;
  listedPage = await servePage();
  unlistedPage = await servePage();
  app = await startTestApp({ CORS_ORIGINS: listedPage.origin });
  browser = await chromium.launch({ executablePath: chromiumExecutable, args: CHROMIUM_FLAGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  for (const page of [listedPage, unlistedPage]) page?.server.close();
});

type Credentials = 'same-origin' | 'include';

interface Outcome {
  status?: number;
  body?: { data?: { viewer?: { name: string } } };
  rateLimit?: string | null;
  error?: string;
}

/** Browser code: fetch /graphql from the page (POST with JSON, or GET with the query in the URL), never throwing. */
const CALL_GRAPHQL = async ({
  url,
  key,
  method,
  credentials,
}: {
  url: string;
  key: string;
  method: 'GET' | 'POST';
  credentials: Credentials;
}): Promise<Outcome> => {
  const query = '{ viewer { name } }';
  try {
    const res =
      method === 'GET'
        ? await fetch(`${url}/graphql?query=${encodeURIComponent(query)}`, { headers: { authorization: `Bearer ${key}` }, credentials })
        : await fetch(`${url}/graphql`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ query }),
            credentials,
          });
    return { status: res.status, body: (await res.json()) as Outcome['body'], rateLimit: res.headers.get('ratelimit') };
  } catch (error) {
    return { error: String(error) };
  }
};

async function callFrom(origin: string, method: 'GET' | 'POST', credentials: Credentials = 'same-origin'): Promise<Outcome> {
  const page = await (await browser!.newContext()).newPage();
  try {
    await page.goto(origin);
    return await page.evaluate(CALL_GRAPHQL, { url: app.url, key: app.apiKey, method, credentials });
  } finally {
    await page.context().close();
  }
}

describe('a page on another origin calling /graphql from headless Chromium', () => {
  it('gets its answer when its origin is in CORS_ORIGINS: POST, GET, and with credentials', async ({ skip }) => {
    if (!chromiumExecutable) {
      console.warn(`skipped: ${NO_CHROMIUM}`);
      return skip(NO_CHROMIUM);
    }
    for (const [method, credentials] of [
      ['POST', 'same-origin'],
      ['GET', 'same-origin'],
      ['POST', 'include'],
    ] as const) {
      const outcome = await callFrom(listedPage.origin, method, credentials);
      expect(outcome, `${method} ${credentials}`).toMatchObject({ status: 200, body: { data: { viewer: { name: 'first' } } } });
    }
    // An exposed header: the page can read what is left of the account's request budget.
    expect((await callFrom(listedPage.origin, 'GET')).rateLimit).toMatch(/; r=\d+;/);
  });

  it('is blocked by the browser when its origin is not listed', async ({ skip }) => {
    if (!chromiumExecutable) return skip(NO_CHROMIUM);
    for (const method of ['POST', 'GET'] as const) {
      const outcome = await callFrom(unlistedPage.origin, method);
      expect(outcome.status, method).toBeUndefined();
      expect(outcome.error, method).toMatch(/TypeError: Failed to fetch/);
    }
  });
});
