import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { FAILURES_PER_DEVICE, FAILURES_PER_EMAIL, FAILURES_PER_EMAIL_AND_IP, FAILURES_PER_IP } from '../../src/auth/sign-in-limits.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createBrowser, PASSWORD, uniqueEmail } from './browser.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const signIn = (email: string, password: string) => createBrowser(app.url).request('POST', '/auth/sign-in', { body: { email, password } });

/** Loopback addresses other than the one the other tests use (the app trusts no proxy: the socket's address counts). */
const ATTACKER = '127.0.1.1';
const OWNER = '127.0.1.2';
const ELSEWHERE = '127.0.1.3';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** A JSON POST from a given local address, with a Cookie header if given. */
function postFrom(address: string, path: string, body: object, cookie?: string): Promise<Answer> {
  const url = new URL(path, app.url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress: address,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...(cookie ? { cookie } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The `basewatch_device` cookie (name=value) an answer set. */
function deviceCookieOf(answer: Answer): string {
  const cookie = (answer.headers['set-cookie'] ?? []) as string[];
  return cookie.find((c) => c.startsWith('basewatch_device='))!.split(';')[0]!;
}

describe('sign-in limits', () => {
  it('refuses an address after 5 failures on an e-mail (the right password included), not the owner elsewhere', async () => {
    const email = uniqueEmail();
    expect((await postFrom(OWNER, '/auth/sign-up', { email, password: PASSWORD })).status).toBe(201);
    for (let i = 0; i < FAILURES_PER_EMAIL_AND_IP; i++)
      expect((await postFrom(ATTACKER, '/auth/sign-in', { email, password: `wrong ${i}` })).status).toBe(401);
    for (const password of ['wrong again!!', PASSWORD]) {
      const limited = await postFrom(ATTACKER, '/auth/sign-in', { email: email.toUpperCase(), password });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ code: 'rate_limited', message: expect.any(String) });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
    }
    // The owner, from another address and a browser that never signed in, is not held back; nor is another e-mail.
    expect((await postFrom(ELSEWHERE, '/auth/sign-in', { email, password: PASSWORD })).status).toBe(200);
    expect((await postFrom(ATTACKER, '/auth/sign-in', { email: uniqueEmail(), password: 'wrong password' })).status).toBe(401);
  });

  it('keeps a browser that signed in before working when the e-mail is locked for every other one, and its address too', async () => {
    const email = uniqueEmail();
    const signedUp = await postFrom('127.0.2.1', '/auth/sign-up', { email, password: PASSWORD });
    const device = deviceCookieOf(signedUp);
    // Failures from many addresses, each under its own limit, add up to the e-mail's.
    const attackers = Array.from({ length: FAILURES_PER_EMAIL / FAILURES_PER_EMAIL_AND_IP }, (_, i) => `127.0.3.${i + 1}`);
    const failed = await Promise.all(
      attackers.map(async (address) => {
        const statuses = [];
        for (let i = 0; i < FAILURES_PER_EMAIL_AND_IP; i++)
          statuses.push((await postFrom(address, '/auth/sign-in', { email, password: `wrong ${i}` })).status);
        return statuses;
      }),
    );
    expect(failed.flat()).toEqual(Array(FAILURES_PER_EMAIL).fill(401));
    expect((await postFrom('127.0.3.200', '/auth/sign-in', { email, password: PASSWORD })).status).toBe(429);
    // Someone at the owner's own address spends that address's limit on other e-mails.
    const others = await Promise.all(
      Array.from({ length: FAILURES_PER_IP }, () =>
        postFrom('127.0.2.1', '/auth/sign-in', { email: uniqueEmail(), password: 'wrong password' }),
      ),
    );
    expect(others.map((answer) => answer.status)).toEqual(Array(FAILURES_PER_IP).fill(401));
    expect((await postFrom('127.0.2.1', '/auth/sign-in', { email, password: PASSWORD })).status).toBe(429);

    const owner = await postFrom('127.0.2.1', '/auth/sign-in', { email, password: PASSWORD }, device);
    expect(owner.status).toBe(200);
    // The device cookie names this e-mail only: for another, the browser is unknown.
    expect((await postFrom('127.0.2.1', '/auth/sign-in', { email: uniqueEmail(), password: 'wrong password' }, device)).status).toBe(429);
  }, 120_000);

  it('gives a known browser a limit of its own: 5 failures refuse it, the owner’s other browsers still sign in', async () => {
    const email = uniqueEmail();
    const device = deviceCookieOf(await postFrom('127.0.4.1', '/auth/sign-up', { email, password: PASSWORD }));
    for (let i = 0; i < FAILURES_PER_DEVICE; i++)
      expect((await postFrom('127.0.4.1', '/auth/sign-in', { email, password: `wrong ${i}` }, device)).status).toBe(401);
    expect((await postFrom('127.0.4.2', '/auth/sign-in', { email, password: PASSWORD }, device)).status).toBe(429);
    expect((await postFrom('127.0.4.1', '/auth/sign-in', { email, password: PASSWORD })).status).toBe(200);
  });

  it('sets the device cookie HttpOnly for the sign-in endpoints alone, and takes no forged or altered one', async () => {
    const email = uniqueEmail();
    const signedUp = await postFrom('127.0.5.1', '/auth/sign-up', { email, password: PASSWORD });
    expect(signedUp.headers['set-cookie']).toContainEqual(
      expect.stringMatching(/^basewatch_device=[^;]+; Max-Age=31536000; Path=\/auth; Expires=[^;]+; HttpOnly; SameSite=Lax$/),
    );
    const device = deviceCookieOf(signedUp);
    // The e-mail locked for one address: a forged or altered cookie does not make that address a known browser.
    for (let i = 0; i < FAILURES_PER_EMAIL_AND_IP; i++)
      expect((await postFrom('127.0.5.2', '/auth/sign-in', { email, password: `wrong ${i}` })).status).toBe(401);
    const middle = Math.floor(device.length / 2);
    const altered = `${device.slice(0, middle)}${device[middle] === 'A' ? 'B' : 'A'}${device.slice(middle + 1)}`;
    for (const forged of [altered, 'basewatch_device=v1.AAAA.BBBB.CCCC']) {
      expect((await postFrom('127.0.5.2', '/auth/sign-in', { email, password: PASSWORD }, forged)).status).toBe(429);
    }
    expect((await postFrom('127.0.5.2', '/auth/sign-in', { email, password: PASSWORD }, device)).status).toBe(200);
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
