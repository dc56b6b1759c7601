import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILURES_PER_EMAIL, FAILURES_PER_IP } from '../../src/auth/sign-in-limits.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createBrowser, PASSWORD, uniqueEmail } from './browser.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const signIn = (email: string, password: string) => createBrowser(app.url).request('POST', '/auth/sign-in', { body: { email, password } });

describe('sign-in limits', () => {
  it('refuses an e-mail after 5 failures with 429 rate_limited and Retry-After, the right password included', async () => {
    const email = uniqueEmail();
    expect((await createBrowser(app.url).request('POST', '/auth/sign-up', { body: { email, password: PASSWORD } })).status).toBe(201);
    expect((await signIn(email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < FAILURES_PER_EMAIL; i++) expect((await signIn(email, `wrong password ${i}`)).status).toBe(401);
    for (const password of ['wrong again!!', PASSWORD]) {
      const limited = await signIn(email.toUpperCase(), password);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ code: 'rate_limited', message: expect.any(String) });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(800);
    }
    // Another e-mail from the same address is not held back by this one.
    expect((await signIn(uniqueEmail(), 'wrong password')).status).toBe(401);
  });

  it('refuses an address after 30 failures, whatever the e-mail', async () => {
    // The first test's failures from this address count too (its 429s included): at most FAILURES_PER_IP in all.
    let answered401 = 0;
    let limited = await signIn(uniqueEmail(), 'wrong password');
    while (limited.status === 401 && answered401 < FAILURES_PER_IP) {
      answered401++;
      limited = await signIn(uniqueEmail(), 'wrong password');
    }
    expect(answered401).toBeGreaterThan(FAILURES_PER_IP - 10);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  }, 30_000);
});

describe('SIGNUP', () => {
  it('is open in sandbox mode by default, closed when set: 404 not_found (no such door), and nothing is created', async () => {
    const closed = await startTestApp({ SIGNUP: 'closed' });
    try {
      const email = uniqueEmail();
      const refused = await createBrowser(closed.url).request('POST', '/auth/sign-up', { body: { email, password: PASSWORD } });
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({ code: 'not_found', message: expect.stringContaining('closed') });
      expect(refused.headers.getSetCookie()).toEqual([]);
      expect((await createBrowser(closed.url).request('POST', '/auth/sign-in', { body: { email, password: PASSWORD } })).status).toBe(401);
    } finally {
      await closed.close();
    }
  });
});

describe('SIGNUP in the configuration', () => {
  it('defaults to open in sandbox mode and closed with the real upstream, and takes only open or closed', async () => {
    const { ConfigError, loadConfig } = await import('../../src/config.js');
    expect(loadConfig({}).signup).toBe('open');
    expect(loadConfig({ AIRTABLE_TOKEN: 'pat123' }).signup).toBe('closed');
    expect(loadConfig({ AIRTABLE_TOKEN: 'pat123', SIGNUP: 'open' }).signup).toBe('open');
    expect(loadConfig({ SIGNUP: 'closed' }).signup).toBe('closed');
    expect(() => loadConfig({ SIGNUP: 'maybe' })).toThrow(ConfigError);
  });
});

describe('the cookie behind https', () => {
  it('is Secure when PUBLIC_URL is https (and the session works on the plain-http test port all the same)', async () => {
    const behindTls = await startTestApp({ PUBLIC_URL: 'https://basewatch.example.com' });
    try {
      const browser = createBrowser(behindTls.url);
      expect((await browser.request('POST', '/auth/sign-up', { body: { email: uniqueEmail(), password: PASSWORD } })).status).toBe(201);
      expect(browser.lastSetCookie).toMatch(/; Secure/);
      expect(browser.lastSetCookie).toMatch(/; HttpOnly/);
      expect((await browser.request('POST', '/auth/sign-out', { csrf: true })).status).toBe(204);
      expect(browser.lastSetCookie).toMatch(/^basewatch_session=;.*; Secure/);
    } finally {
      await behindTls.close();
    }
  });
});
