import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { CHROMIUM_FLAGS, chromiumExecutable, NO_CHROMIUM } from '../graphql/support/chromium.js';
import { DEMO_BASES } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { audit, openPhone, PASSWORD, signUpInPage } from './support/browser-pages.js';

let app: TestApp | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!chromiumExecutable) return;
  await buildWeb();
  app = await startTestApp();
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  browser = await chromium.launch({ executablePath: chromiumExecutable, args: CHROMIUM_FLAGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** Signs the user out everywhere from another browser (as a password change elsewhere would). */
async function endEverySessionElsewhere(email: string): Promise<void> {
  const other: BrowserContext = await browser!.newContext();
  const signedIn = await other.request.post(`${app!.url}/auth/sign-in`, { data: { email, password: PASSWORD } });
  expect(signedIn.status()).toBe(200);
  const { csrfToken } = (await signedIn.json()) as { csrfToken: string };
  expect((await other.request.delete(`${app!.url}/auth/sessions`, { headers: { 'x-csrf-token': csrfToken } })).status()).toBe(204);
  await other.close();
}

describe('a session that ended elsewhere', () => {
  it('sends the person to sign-in with a notice, from a query, a session call and the live socket, and back after signing in', async ({
    skip,
  }) => {
    if (!chromiumExecutable) return skip(NO_CHROMIUM);
    const { context, page } = await openPhone(browser!, app!.url);
    const consoleErrors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && consoleErrors.push(message.text())));
    // Signed out, the first page asks for no session it does not have: nothing in the console.
    await page.goto(`${app!.url}/`);
    await page.getByRole('heading', { name: 'Sign in to basewatch' }).waitFor();
    expect(await page.getByTestId('sign-in-notice').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
    const email = await signUpInPage(page, app!.url);
    const signIn = async () => {
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };

    // 1. A GraphQL query answered 401: moving to another page.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await endEverySessionElsewhere(email);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Sign in to basewatch' }).waitFor();
    expect(await page.getByTestId('sign-in-notice').textContent()).toBe('Your session ended; sign in again');
    expect(await page.getByText('Received status code').count()).toBe(0);
    expect(await audit(page)).toEqual({ violations: [], overflows: false });
    await signIn();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    expect(page.url()).toBe(`${app!.url}/audit-log`);
    expect(await page.getByTestId('sign-in-notice').count()).toBe(0);

    // 2. An /auth/* call answered 401: changing the password on Settings.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await endEverySessionElsewhere(email);
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password').fill('another long password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Sign in to basewatch' }).waitFor();
    expect(await page.getByTestId('sign-in-notice').textContent()).toBe('Your session ended; sign in again');
    await signIn();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect(page.url()).toBe(`${app!.url}/settings`);

    // 3. The subscription socket closed for the session, with nothing done in the page: a base page is live.
    await page.getByRole('link', { name: 'Usage' }).click();
    const picker = page.getByLabel('Track a base of your Airtable account');
    await expect.poll(() => picker.locator('option').allTextContents()).toContain(DEMO_BASES.catalog);
    await picker.selectOption({ label: DEMO_BASES.catalog });
    const socketOpen = page.waitForEvent('websocket');
    await page.getByRole('button', { name: 'Track base' }).click();
    await page.getByRole('heading', { name: DEMO_BASES.catalog, level: 1 }).waitFor();
    const basePage = page.url();
    await socketOpen;
    await endEverySessionElsewhere(email);
    await page.getByRole('heading', { name: 'Sign in to basewatch' }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('sign-in-notice').textContent()).toBe('Your session ended; sign in again');
    await signIn();
    await page.getByRole('heading', { name: DEMO_BASES.catalog, level: 1 }).waitFor();
    expect(page.url()).toBe(basePage);
    await context.close();
  }, 90_000);
});
