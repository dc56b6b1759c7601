import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { CHROMIUM_FLAGS, chromiumExecutable, NO_CHROMIUM } from '../graphql/support/chromium.js';
import { sandboxControl } from '../support/sandbox-control.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { audit, openPhone, signUpInPage, uniqueEmail } from './support/browser-pages.js';

let app: TestApp | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!chromiumExecutable) return;
  await buildWeb();
  app = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:9' });
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  browser = await chromium.launch({ executablePath: chromiumExecutable, args: CHROMIUM_FLAGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function connectToken(page: Page, token: string, email: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('Or paste a personal access token').fill(token);
  await page.getByRole('button', { name: 'Connect with token' }).click();
  await expect.poll(() => page.getByTestId('connection-status').textContent()).toContain(email);
}

describe('what the account’s own connection cannot see', () => {
  it('marks the tracked base, monitoring config and webhook of a base the connection lost, where each is listed', async ({ skip }) => {
    if (!chromiumExecutable) return skip(NO_CHROMIUM);
    const control = sandboxControl(app!.url);
    const user = async (name: string) => {
      const made = await control<{ id: string; token: string; email: string }>('POST', 'users', { email: uniqueEmail() });
      const base = await control<{ id: string; tables: Array<{ id: string }> }>('POST', `users/${made.id}/bases`, {
        name: `${name}'s base`,
      });
      const log = await control<{ id: string }>('POST', `users/${made.id}/bases`, { name: `${name}'s log` });
      return { ...made, base, log };
    };
    const ada = await user('Ada');
    const bob = await user('Bob');
    const { context, page } = await openPhone(browser!, app!.url);
    await signUpInPage(page, app!.url);
    await connectToken(page, ada.token, ada.email);

    // Ada's base tracked, monitored and forwarded (through REST, with the page's session).
    const { csrfToken } = await (await page.request.get(`${app!.url}/auth/session`)).json();
    const post = async (path: string, data: unknown) => {
      const res = await page.request.post(`${app!.url}${path}`, { data, headers: { 'x-csrf-token': csrfToken } });
      expect(res.status(), path).toBe(201);
    };
    await post('/usage/bases', { baseId: ada.base.id });
    await post('/monitoring-config', { baseId: ada.base.id, monitoringBaseId: ada.log.id });
    await post('/webhooks', { baseId: ada.base.id, event: 'table_create', webhookUrl: 'http://127.0.0.1:9/hook' });

    // Reconnected as Bob, who does not see Ada's base.
    await connectToken(page, bob.token, bob.email);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
    await expect
      .poll(() => page.getByTestId('needs-attention').textContent())
      .toBe("Ada's baseYour Airtable connection cannot see this base");
    expect(
      await page
        .getByRole('table', { name: 'Tracked bases' })
        .getByRole('row', { name: /Ada's base/ })
        .textContent(),
    ).toContain('Not visible');
    expect(await audit(page)).toEqual({ violations: [], overflows: false });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await expect.poll(() => page.getByTestId('monitoring-config').textContent()).toContain('Not visible to your Airtable connection');
    expect(await audit(page)).toEqual({ violations: [], overflows: false });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await expect.poll(() => page.getByTestId('webhook').textContent()).toContain('Not visible to your Airtable connection');
    expect(await audit(page)).toEqual({ violations: [], overflows: false });
    await context.close();
  }, 60_000);
});
