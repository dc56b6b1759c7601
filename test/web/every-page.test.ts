import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { CHROMIUM_FLAGS, chromiumExecutable, NO_CHROMIUM } from '../graphql/support/chromium.js';
import { DEMO_BASES } from '../support/factories.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { auditBothWidths, CLEAN_AT_BOTH_WIDTHS, openPhone, PASSWORD } from './support/browser-pages.js';

let app: TestApp | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!chromiumExecutable) return;
  await buildWeb();
  app = await startTestApp({
    SCHEDULER_RUN_JOBS: 'true',
    JOBS_PROCESS_EVERY_MS: '50',
    AUDIT_POLL_INTERVAL_SECONDS: '1',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:9',
  });
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  browser = await chromium.launch({ executablePath: chromiumExecutable, args: CHROMIUM_FLAGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** Each page once it shows what it is for: axe-clean and nothing wider than the viewport at 390 and 1280 px. */
async function check(page: Page, name: string): Promise<void> {
  expect(await auditBothWidths(page, name), name).toEqual(CLEAN_AT_BOTH_WIDTHS);
}

describe('every page at 390 and 1280 px', () => {
  it('is axe-clean, scrolls no page sideways (a long e-mail included), keeps confirmations in view, and is photographed', async ({
    skip,
  }) => {
    if (!chromiumExecutable) return skip(NO_CHROMIUM);
    const { context, page, outside } = await openPhone(browser!, app!.url);

    await page.goto(`${app!.url}/sign-in`);
    await page.getByRole('heading', { name: 'Sign in to basewatch' }).waitFor();
    await check(page, 'sign-in');
    await page.goto(`${app!.url}/sign-up`);
    await page.getByRole('heading', { name: 'Create your basewatch account' }).waitFor();
    await check(page, 'sign-up');
    await page.goto(`${app!.url}/set-password?token=not-a-real-one`);
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    await check(page, 'set-password');

    // A long e-mail, as the one that once pushed the header 434 px wide.
    const email = `someone.with-a-rather-long-address-${Date.now()}@operations.example-company.com`;
    await page.goto(`${app!.url}/sign-up`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Account name (optional)').fill('The operations team of a rather large example company');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    await page.getByText('No base is tracked yet').waitFor();
    await check(page, 'usage-empty');

    // A tracked base, counted.
    const picker = page.getByLabel('Track a base of your Airtable account');
    await expect.poll(() => picker.locator('option').allTextContents()).toContain(DEMO_BASES.catalog);
    await picker.selectOption({ label: DEMO_BASES.catalog });
    await page.getByRole('button', { name: 'Track base' }).click();
    await page.getByRole('heading', { name: DEMO_BASES.catalog, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Count now' }).click();
    await page.getByTestId('run-result').waitFor();
    await expect.poll(() => page.locator('.chart canvas').count()).toBe(1);
    await check(page, 'base');
    await page.getByRole('link', { name: 'All tracked bases' }).click();
    await page.getByRole('table', { name: 'Tracked bases' }).waitFor();
    await check(page, 'usage');

    // The audit log: a config, and a change in its browser.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByText('No base is monitored yet').waitFor();
    const monitored = page.getByLabel('Base to monitor');
    await expect.poll(() => monitored.locator('option').allTextContents()).toContain(DEMO_BASES.catalog);
    await check(page, 'audit-log-empty');
    await monitored.selectOption({ label: DEMO_BASES.catalog });
    await page.getByLabel('Base for the Changes table').selectOption({ label: DEMO_BASES.changeLog });
    await page.getByRole('button', { name: 'Start monitoring' }).click();
    await page.getByRole('heading', { name: `Changes of ${DEMO_BASES.catalog}`, level: 1 }).waitFor();
    const api = sandboxApi(app!.url);
    const baseId = (await api.call('GET', '/meta/bases')).bases.find((b: { name: string }) => b.name === DEMO_BASES.catalog).id;
    const table = (await api.schema(baseId))[0];
    const primary = table.fields.find((f) => f.id === table.primaryFieldId)!;
    await api.createRecords(baseId, table.id, [{ [primary.name]: 'A record with a rather long primary field value to wrap' }], {
      source: 'client',
      email,
    });
    await expect.poll(() => page.getByTestId('changes').textContent(), { timeout: 20_000 }).toContain('rather long primary field');
    await check(page, 'audit-changes');
    await page.getByRole('link', { name: 'All monitored bases' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await check(page, 'audit-log');

    // Webhooks: one made, its log open.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No webhook yet').waitFor();
    await check(page, 'webhooks-empty');
    await page.getByLabel('Base').selectOption({ label: DEMO_BASES.catalog });
    await page.getByLabel('Event').selectOption('RECORD_UPDATE');
    const tablePicker = page.getByLabel('Table');
    await expect.poll(() => tablePicker.locator('option').count()).toBeGreaterThan(1);
    await tablePicker.selectOption({ label: table.name });
    await page.getByLabel('URL').fill('http://127.0.0.1:9/a/rather/long/path/of/a/receiver/that/does/not/fit/on/a/phone');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByTestId('webhook-secret').waitFor();
    await check(page, 'webhooks-secret');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Delivery log' }).click();
    await page.getByTestId('delivery-log').waitFor();
    await check(page, 'webhooks');

    // Settings, with a key and its revocation asked: the question and its buttons inside the phone's width.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Key name').fill('a key with a long descriptive name for the deploys');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('new-api-key').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: /^Revoke a key/ }).click();
    const yes = page.getByRole('button', { name: /^Yes, revoke/ });
    await yes.waitFor();
    // Focus moves to it once it is drawn (an effect after the render that shows it).
    await expect.poll(() => page.evaluate<boolean>('document.activeElement?.textContent?.startsWith("Yes, revoke") ?? false')).toBe(true);
    const inView = async () => {
      const box = (await yes.boundingBox())!;
      const viewport = page.viewportSize()!;
      return box.x >= 0 && box.x + box.width <= viewport.width;
    };
    expect(await inView()).toBe(true);
    await check(page, 'settings-confirm');
    expect(await inView()).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await check(page, 'settings');

    await page.goto(`${app!.url}/no-such-page`);
    await page.getByRole('heading', { name: 'Page not found', level: 1 }).waitFor();
    await check(page, 'not-found');
    expect(outside).toEqual([]);
    await context.close();
  }, 120_000);
});
