import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_URL, admin } from '../support/postgres.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createBrowser, PASSWORD, uniqueEmail } from './browser.js';

/** The users-and-sessions migration and the session lookup on PostgreSQL (a database of its own, dropped after). */
const database = `basewatch_test_${randomBytes(4).toString('hex')}`;
const available = await admin('SELECT 1');
let app: TestApp;

describe.skipIf(!available)('web sessions on PostgreSQL', () => {
  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    app = await startTestApp({ DATABASE_URL: url.toString() });
  });
  afterAll(async () => {
    await app?.close();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  it('signs up, reads and writes by cookie, lists and ends sessions, and refuses a duplicate e-mail', async () => {
    const email = uniqueEmail();
    const browser = createBrowser(app.url);
    expect((await browser.request('POST', '/auth/sign-up', { body: { email, password: PASSWORD } })).status).toBe(201);
    expect((await browser.request('GET', '/auth/session')).body.user.email).toBe(email);
    expect((await browser.request('GET', '/usage/bases')).status).toBe(200);
    const other = createBrowser(app.url);
    expect((await other.request('POST', '/auth/sign-in', { body: { email, password: PASSWORD } })).status).toBe(200);
    expect((await other.request('GET', '/auth/sessions')).body.sessions).toHaveLength(2);
    expect((await createBrowser(app.url).request('POST', '/auth/sign-up', { body: { email, password: PASSWORD } })).status).toBe(409);
    expect((await other.request('DELETE', '/auth/sessions', { csrf: true })).status).toBe(204);
    expect((await browser.request('GET', '/auth/session')).status).toBe(401);
  });
});
