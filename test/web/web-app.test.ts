import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { CHROMIUM_FLAGS, chromiumExecutable, NO_CHROMIUM } from '../graphql/support/chromium.js';
import { createHttp } from '../support/http.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { sandboxControl } from '../support/sandbox-control.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { tempDir } from '../support/temp-dir.js';
import { audit, openPhone as openPhoneAt, PASSWORD, uniqueEmail } from './support/browser-pages.js';

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

const openPhone = () => openPhoneAt(browser!, app!.url);

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

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in to basewatch' }).waitFor();
    expect((await context.request.get(`${app!.url}/auth/session`)).status()).toBe(401);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong e-mail or password');
    // A page opened signed out is where signing in leads.
    await page.goto(`${app!.url}/audit-log`);
    await page.getByRole('heading', { name: 'Sign in to basewatch' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    expect(page.url()).toBe(`${app!.url}/audit-log`);

    // Password change (the API's message for a wrong current one), the sessions, and signing out everywhere.
    const other = await browser!.newContext();
    expect((await other.request.post(`${app!.url}/auth/sign-in`, { data: { email, password: PASSWORD } })).status()).toBe(200);
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect.poll(() => page.getByTestId('sessions').locator('li').count()).toBe(2);
    await page.getByLabel('Current password').fill('not the password');
    await page.getByLabel('New password').fill('a new long password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/password/i);
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed').waitFor();
    expect((await other.request.get(`${app!.url}/auth/session`)).status()).toBe(401);
    await expect.poll(() => page.getByTestId('sessions').locator('li').count()).toBe(1);
    // The fresh CSRF token is in use: a write still works after the change.
    await page.getByLabel('Key name').fill('after the change');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('new-api-key').waitFor();
    expect(await audit(page)).toEqual({ violations: [], overflows: false });
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('heading', { name: 'Sign in to basewatch' }).waitFor();
    expect((await context.request.get(`${app!.url}/auth/session`)).status()).toBe(401);
    await other.close();
    expect(outside).toEqual([]);
    await context.close();
  }, 60_000);

  it('sets the password of an operator-made user from the one-time link, and signs in', async ({ skip }) => {
    if (!chromiumExecutable) return skip(NO_CHROMIUM);
    const email = uniqueEmail();
    const { setPasswordUrl } = await app!.running.services.users.createByOperator(email);
    const { context, page } = await openPhone();
    await page.goto(`${app!.url}/set-password?${new URL(setPasswordUrl).searchParams}`);
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    expect(await audit(page)).toEqual({ violations: [], overflows: false });
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    expect(await page.getByRole('banner').textContent()).toContain(email);
    await context.close();
  }, 60_000);
});

describe('settings and usage in the browser', () => {
  it('connects a pasted token, tracks a base, counts it into the chart, and makes, uses and revokes an API key', async ({ skip }) => {
    if (!chromiumExecutable) return skip(NO_CHROMIUM);
    const control = sandboxControl(app!.url);
    const upstreamUser = await control<{ id: string; token: string; email: string }>('POST', 'users', { email: uniqueEmail() });
    const base = await control<{ id: string; tables: Array<{ id: string }> }>('POST', `users/${upstreamUser.id}/bases`, {
      name: 'Web CRM',
    });
    await sandboxApi(app!.url, upstreamUser.token).createRecords(base.id, base.tables[0].id, [{ Name: 'a' }, { Name: 'b' }, { Name: 'c' }]);

    const { context, page } = await openPhone();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app!.url });
    const sentOverSockets: string[] = [];
    page.on('websocket', (socket) => socket.on('framesent', ({ payload }) => sentOverSockets.push(String(payload))));
    await page.goto(`${app!.url}/sign-up`);
    await page.getByLabel('E-mail').fill(uniqueEmail());
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();

    // The connection: a pasted personal access token.
    await page.getByRole('link', { name: 'Settings' }).click();
    // Without a connection of its own, the account works through the sandbox's shared one, and Settings says whose.
    const sharedUser = await sandboxApi(app!.url).call('GET', '/meta/whoami');
    await expect
      .poll(() => page.getByTestId('shared-connection').textContent())
      .toContain(`shared Airtable connection, as ${sharedUser.email ?? sharedUser.id}`);
    await page.getByLabel('Or paste a personal access token').fill('pat-not-a-real-one');
    await page.getByRole('button', { name: 'Connect with token' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Or paste a personal access token').fill(upstreamUser.token);
    await page.getByRole('button', { name: 'Connect with token' }).click();
    await expect.poll(() => page.getByTestId('connection-status').textContent()).toContain(upstreamUser.email);
    expect(await page.getByTestId('connection-status').textContent()).toContain('Connected');
    expect(await audit(page)).toEqual({ violations: [], overflows: false });

    // Track the base, picked from the connected user's bases, and count it.
    await page.getByRole('link', { name: 'Usage' }).click();
    const picker = page.getByLabel('Track a base of your Airtable account');
    await expect.poll(() => picker.locator('option').allTextContents()).toEqual(['Pick a base…', 'Web CRM']);
    await picker.selectOption({ label: 'Web CRM' });
    await page.getByRole('button', { name: 'Track base' }).click();
    await page.getByRole('heading', { name: 'Web CRM', level: 1 }).waitFor();
    await page.getByText('Not counted yet').waitFor();
    await page.getByRole('button', { name: 'Count now' }).click();
    await expect.poll(() => page.getByTestId('run-result').textContent()).toMatch(/^Counted 1 table for [A-Z][a-z]{2} \d{1,2}, \d{4}\.$/);
    // Focus stays on the button that was pressed (it is not disabled while it runs).
    expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Count now');
    const series = JSON.parse((await page.getByTestId('usage-chart').getAttribute('data-series'))!);
    expect(series).toEqual([{ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), recordCount: 3, storageBytes: 0 }]);
    await expect.poll(() => page.locator('.chart canvas').count()).toBe(1);
    // Day ticks: Mondays over the 30 days (a phone is too narrow for every day), no hours.
    const xTicks = async () => JSON.parse((await page.getByTestId('usage-chart').getAttribute('data-x-ticks')) ?? '[]') as string[];
    await expect.poll(async () => (await xTicks()).length).toBeGreaterThan(2);
    for (const tick of await xTicks()) expect(tick).toMatch(/^[A-Z][a-z]{2} \d{1,2}$/);
    // The legend names the day hovered, its total and each table's own value; a day without a count is a gap.
    const plot = page.locator('.u-over');
    const box = (await plot.boundingBox())!;
    await plot.hover({ position: { x: box.width - 2, y: box.height / 2 } });
    await expect.poll(() => page.getByTestId('chart-legend').textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}Total 3Table 1 3$/);
    await plot.hover({ position: { x: box.width / 2, y: box.height / 2 } });
    await expect.poll(() => page.getByTestId('chart-legend').textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}not counted$/);
    await page.getByLabel('Attachment storage').check();
    // The storage chart replaces the records' one: wait for it to be drawn.
    await expect.poll(() => plot.boundingBox()).not.toBeNull();
    const storageBox = (await plot.boundingBox())!;
    await plot.hover({ position: { x: storageBox.width - 2, y: 20 } });
    await expect.poll(() => page.getByTestId('chart-legend').textContent()).toMatch(/Total 0 bytesTable 1 0 bytes$/);
    const browserZone = await page.evaluate<string>('Intl.DateTimeFormat().resolvedOptions().timeZone');
    expect(await page.locator('.chart figcaption').textContent()).toContain(`days of the base’s zone, ${browserZone}`);
    // A week: every day (every other one on a phone), as days.
    await page.getByLabel('Days shown').selectOption('7');
    await expect.poll(async () => (await xTicks()).length).toBeGreaterThanOrEqual(4);
    for (const tick of await xTicks()) expect(tick).toMatch(/^[A-Z][a-z]{2} \d{1,2}$/);
    await page.screenshot({ path: join(tempDir('basewatch-web-'), 'base-page.png'), fullPage: true });
    expect(await audit(page)).toEqual({ violations: [], overflows: false });
    expect(await page.getByTestId('table-breakdown').locator('tbody tr').allTextContents()).toEqual(['Table 1300 bytes']);
    await page.getByLabel('Hour').selectOption('5');
    await page.getByLabel('Time zone').selectOption('Asia/Tokyo');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByText('Schedule saved.').waitFor();
    await expect.poll(() => page.getByTestId('next-run').textContent()).toMatch(/ 5:\d\d AM in Asia\/Tokyo\.$/);
    await expect.poll(() => page.locator('.chart figcaption').textContent()).toContain('days of the base’s zone, Asia/Tokyo');
    await page.getByRole('link', { name: 'All tracked bases' }).click();
    const trackedBases = page.getByRole('table', { name: 'Tracked bases' });
    await expect.poll(() => trackedBases.textContent()).toContain('Web CRM3');
    expect(await trackedBases.getByRole('row', { name: /Web CRM/ }).textContent()).toMatch(/one day$/);

    // An API key: shown once, copied, used against REST, revoked → 401.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Key name').fill('deploy script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-api-key').textContent())!;
    expect(key).toMatch(/^sk_[A-Za-z0-9]{43}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(key);
    const rest = createHttp(app!.url, key);
    const tracked = await rest('GET', '/usage/bases');
    expect(tracked.status).toBe(200);
    expect(tracked.body.bases.map((b: { baseName: string }) => b.baseName)).toEqual(['Web CRM']);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByTestId('new-api-key').count()).toBe(0);
    const row = page.getByRole('row', { name: /deploy script/ });
    expect(await row.textContent()).toContain(key.slice(0, 8));
    expect(await audit(page)).toEqual({ violations: [], overflows: false });

    // A count made elsewhere (REST, with the key) shows up on the open base page: snapshotRecorded over its socket.
    const subscriptions = () =>
      sentOverSockets.filter((frame) => frame.includes('"subscribe"') && frame.includes('snapshotRecorded')).length;
    const before = subscriptions();
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('link', { name: 'Web CRM' }).click();
    await page.getByRole('heading', { name: 'Web CRM', level: 1 }).waitFor();
    await expect.poll(subscriptions).toBe(before + 1);
    await sandboxApi(app!.url, upstreamUser.token).createRecords(base.id, base.tables[0].id, [{ Name: 'd' }, { Name: 'e' }]);
    const restRun = await rest('POST', `/usage/bases/${tracked.body.bases[0].id}/run`);
    expect(restRun.status).toBe(200);
    // The base now counts in Asia/Tokyo, where today may already be the day after the first count's.
    const dayCounted = async () =>
      (JSON.parse((await page.getByTestId('usage-chart').getAttribute('data-series'))!) as { date: string; recordCount: number }[]).find(
        (day) => day.date === restRun.body.snapshotDate,
      )?.recordCount;
    await expect.poll(dayCounted, { timeout: 10_000 }).toBe(5);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Revoke deploy script' }).click();
    await page.getByRole('button', { name: 'Yes, revoke deploy script' }).click();
    await page.getByText('No API keys yet').waitFor();
    expect((await rest('GET', '/usage/bases')).status).toBe(401);

    // The account's name, then disconnecting.
    await page.getByLabel('Account name').fill('Renamed team');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect.poll(() => page.getByRole('banner').textContent()).toContain('Renamed team');
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('button', { name: 'Yes, disconnect' }).click();
    await page.getByTestId('shared-connection').waitFor();
    const deniedAlert = async () => {
      await page.getByRole('alert').waitFor();
      return page.getByRole('alert').textContent();
    };

    // A link to Settings cannot make it report anything: only an outcome the callback itself left counts.
    await page.goto(`${app!.url}/settings?oauth=connected&oauthError=Your%20account%20is%20locked`);
    await page.getByTestId('shared-connection').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByText('Connected with Airtable.').count()).toBe(0);

    // OAuth through the sandbox's consent page, back to Settings: refused first (the page's own message), then allowed.
    for (const decision of ['Deny', 'Allow access'] as const) {
      await page.getByRole('button', { name: 'Connect with Airtable' }).click();
      await page.getByLabel('Sign in as').selectOption(upstreamUser.id);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('All current and future bases of this user').check();
      await page.getByRole('button', { name: decision }).click();
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      await expect.poll(() => page.url()).toBe(`${app!.url}/settings`);
      if (decision === 'Deny') expect(await deniedAlert()).toBe('Access was not granted on Airtable: nothing was connected.');
    }
    await expect.poll(() => page.getByTestId('connection-status').textContent()).toContain('OAuth');
    expect(await page.getByRole('status').first().textContent()).toBe('Connected with Airtable.');
    expect(await page.getByTestId('connection-status').textContent()).toContain(upstreamUser.email);
    await context.close();
  }, 60_000);
});
