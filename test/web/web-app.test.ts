import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { CHROMIUM_FLAGS, chromiumExecutable, NO_CHROMIUM } from '../graphql/support/chromium.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const PASSWORD = 'correct horse battery';

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

/** A phone-sized page (390 px) in a fresh context; axe-core is injected by the test, so the page's CSP is bypassed. */
async function openPhone(): Promise<{ context: BrowserContext; page: Page; outside: string[] }> {
  const context = await browser!.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
  const page = await context.newPage();
  const outside: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(app!.url) && !/^(data|blob|about):/.test(request.url())) outside.push(request.url());
  });
  return { context, page, outside };
}

/** Serious and critical axe-core violations of the page as it is now, and whether it scrolls sideways at 390 px. */
async function audit(page: Page): Promise<{ violations: string[]; overflows: boolean }> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate<string[]>(`axe.run(document, { resultTypes: ['violations'] }).then((result) =>
    result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`);
  const overflows = await page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');
  return { violations, overflows };
}

const uniqueEmail = () => `web-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

describe('the web application at /', () => {
  it('signs up, navigates, signs out and in again; every page axe-clean at 390 px, nothing loaded from elsewhere', async ({ skip }) => {
    if (!chromiumExecutable) return skip(NO_CHROMIUM);
    const { context, page, outside } = await openPhone();
    const email = uniqueEmail();

    await page.goto(`${app!.url}/`);
    await expect.poll(() => page.url()).toBe(`${app!.url}/sign-in`);
    await page.getByRole('heading', { name: 'Sign in to basewatch' }).waitFor();
    expect(await audit(page)).toEqual({ violations: [], overflows: false });

    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Create your basewatch account' }).waitFor();
    expect(await audit(page)).toEqual({ violations: [], overflows: false });
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByLabel('Account name (optional)').fill('Web team');
    // The browser's own check (minlength) stops it; past it, the API's message is shown.
    await page.getByLabel('Password').fill(email);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/e-mail/i);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();

    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    expect(page.url()).toBe(`${app!.url}/`);
    await page.getByText('No base is tracked yet').waitFor();
    expect(await page.getByRole('banner').textContent()).toContain('Web team');
    expect(await audit(page)).toEqual({ violations: [], overflows: false });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByText('No API keys yet').waitFor();
    expect(await audit(page)).toEqual({ violations: [], overflows: false });

    // A reload keeps the session (the cookie) and the page (the server answers every app path with the app).
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to basewatch' }).waitFor();
    expect((await context.request.get(`${app!.url}/auth/session`)).status()).toBe(401);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong e-mail or password');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    expect(outside).toEqual([]);
    await context.close();
  }, 60_000);
});
