import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, chromiumExecutable, NO_CHROMIUM } from '../graphql/support/chromium.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.url}${path}`, { headers, redirect: 'manual' });
const html = { accept: 'text/html' };

describe('JSON answers', () => {
  it.each([
    ['a probe', '/healthz', {}],
    ['an API answer', '/usage/bases', { authorization: 'Bearer KEY' }],
    ['an error', '/usage/bases', {}],
    ['an unknown route', '/nowhere', {}],
    ['GraphQL', '/graphql?query=%7B__typename%7D', { authorization: 'Bearer KEY', accept: 'application/json' }],
  ])('%s: nosniff, loads nothing and is framed nowhere', async (_name, path, headers) => {
    const res = await get(path, Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('KEY', app.apiKey)])));
    expect(res.headers.get('content-type')).toMatch(/^application\/(graphql-response\+)?json/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'");
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('pages', () => {
  it.each([
    ['the API docs', '/docs/', "script-src 'self';"],
    ['the offline GraphQL IDE', '/graphql/ide/', "script-src 'self';"],
    // Apollo's landing page: its own policy is a <meta> with a nonce; the header adds the framing rule.
    ['the GraphQL landing page', '/graphql', "frame-ancestors 'none'"],
  ])('%s: a policy of its own that forbids framing', async (_name, path, part) => {
    const res = await get(path, html);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toContain(part);
    expect(policy).toMatch(/frame-ancestors 'none'/);
    expect(policy).not.toContain("'unsafe-eval'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('the docs page runs no inline script: Swagger UI starts from /docs/init.js', async () => {
    const page = await (await get('/docs/', html)).text();
    expect(page).not.toMatch(/<script>/);
    const init = await get('/docs/init.js');
    expect(init.headers.get('content-type')).toMatch(/javascript/);
    expect(await init.text()).toContain('SwaggerUIBundle');
  });
});

describe('HSTS', () => {
  it('is sent when PUBLIC_URL is https', async () => {
    const secure = await startTestApp({ PUBLIC_URL: 'https://basewatch.example.com' });
    try {
      for (const path of ['/healthz', '/docs/']) {
        const res = await fetch(`${secure.url}${path}`);
        expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
      }
    } finally {
      await secure.close();
    }
  });

  it('is not sent when PUBLIC_URL is http', async () => {
    const plain = await startTestApp({ PUBLIC_URL: 'http://127.0.0.1:1' });
    try {
      expect((await fetch(`${plain.url}/healthz`)).headers.get('strict-transport-security')).toBeNull();
    } finally {
      await plain.close();
    }
  });
});

describe('in a browser, the pages work under their policies', () => {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (chromiumExecutable) browser = await chromium.launch({ executablePath: chromiumExecutable, args: CHROMIUM_FLAGS });
  }, 60_000);
  afterAll(() => browser?.close());

  /** A fresh page and the policy violations Chromium reports on it (and its frames). */
  async function openPage(): Promise<{ page: Page; violations: string[] }> {
    const page = await (await browser!.newContext()).newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    return { page, violations };
  }

  it('the API docs render the operations and "Try it out" reaches the API', async ({ skip }) => {
    if (!browser) return skip(NO_CHROMIUM);
    const { page, violations } = await openPage();
    await page.goto(`${app.url}/docs/`);
    await page.locator('.opblock').first().waitFor({ timeout: 15_000 });
    const probe = page.locator('.opblock', { hasText: '/healthz' }).first();
    await probe.locator('.opblock-summary').click();
    await probe.getByRole('button', { name: 'Try it out' }).click();
    const answered = page.waitForResponse((response) => response.url() === `${app.url}/healthz`, { timeout: 15_000 });
    await probe.getByRole('button', { name: 'Execute' }).click();
    expect((await answered).status()).toBe(200);
    expect(violations).toEqual([]);
  });

  it('the offline IDE starts, introspects and runs a query', async ({ skip }) => {
    if (!browser) return skip(NO_CHROMIUM);
    const { page, violations } = await openPage();
    await page.goto(`${app.url}/graphql/ide/`);
    const introspection = page.waitForResponse(
      (response) => response.url() === `${app.url}/graphql` && (response.request().postData() ?? '').includes('__schema'),
      { timeout: 15_000 },
    );
    await page.getByLabel('API key').fill(app.apiKey);
    await page.getByRole('button', { name: 'Open the IDE' }).click();
    expect((await introspection).status()).toBe(200);
    await page.getByText('Send Request').click();
    await page.locator('.cm-content').filter({ hasText: '"viewer"' }).waitFor({ timeout: 15_000 });
    expect(violations).toEqual([]);
  });

  it('no page of another site can frame the docs or the IDE', async ({ skip }) => {
    if (!browser) return skip(NO_CHROMIUM);
    // Another origin (another port) whose page frames ours.
    const framer = createServer((_req, res) =>
      res
        .setHeader('content-type', 'text/html')
        .end(`<iframe src="${app.url}/docs/"></iframe><iframe src="${app.url}/graphql/ide/"></iframe>`),
    );
    await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
    try {
      const { page, violations } = await openPage();
      await page.goto(`http://127.0.0.1:${(framer.address() as AddressInfo).port}/`);
      await expect.poll(() => violations.filter((text) => text.includes("frame-ancestors 'none'")).length, { timeout: 10_000 }).toBe(2);
      for (const frame of page.frames().slice(1)) expect(await frame.locator('#ui, #api-key').count()).toBe(0);
    } finally {
      framer.close();
    }
  });
});
