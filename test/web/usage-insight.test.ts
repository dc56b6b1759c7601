import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { fromGlobalId } from '../../src/resolvers/relay/global-id.js';
import { CHROMIUM_FLAGS, chromiumExecutable, NO_CHROMIUM } from '../graphql/support/chromium.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { sandboxControl } from '../support/sandbox-control.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { audit, openPhone, signUpInPage, uniqueEmail } from './support/browser-pages.js';

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

const dayOffset = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Pixels of the chart's canvas in the limit line's red (#b42318); the stacked tables are drawn in other colours. */
const redPixels = (page: Page) =>
  page.evaluate<number>(`(() => {
    const canvas = document.querySelector('.chart canvas');
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let red = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] > 150 && data[i + 1] < 70 && data[i + 2] < 60 && data[i + 3] > 200) red += 1;
    return red;
  })()`);

describe('limits, forecast, alerts, counting and API calls in the browser', () => {
  it('sets a limit drawn on the chart and forecast, alerts on a count past a threshold, and shows the month’s API calls', async ({
    skip,
  }) => {
    if (!chromiumExecutable) return skip(NO_CHROMIUM);
    const control = sandboxControl(app!.url);
    const upstreamUser = await control<{ id: string; token: string; email: string }>('POST', 'users', { email: uniqueEmail() });
    const base = await control<{ id: string; tables: Array<{ id: string; name: string }> }>('POST', `users/${upstreamUser.id}/bases`, {
      name: 'Insight CRM',
    });
    const upstream = sandboxApi(app!.url, upstreamUser.token);
    for (let batch = 0; batch < 3; batch += 1) {
      await upstream.createRecords(
        base.id,
        base.tables[0].id,
        Array.from({ length: 10 }, (_, i) => ({ Name: `r${batch}-${i}` })),
      );
    }

    const { context, page, outside } = await openPhone(browser!, app!.url);
    await signUpInPage(page, app!.url);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Or paste a personal access token').fill(upstreamUser.token);
    await page.getByRole('button', { name: 'Connect with token' }).click();
    await expect.poll(() => page.getByTestId('connection-status').textContent()).toContain('Connected');
    await page.getByRole('link', { name: 'Usage' }).click();
    const picker = page.getByLabel('Track a base of your Airtable account');
    await expect.poll(() => picker.locator('option').allTextContents()).toContain('Insight CRM');
    await picker.selectOption({ label: 'Insight CRM' });
    await page.getByRole('button', { name: 'Track base' }).click();
    await page.getByRole('heading', { name: 'Insight CRM', level: 1 }).waitFor();

    // Before any limit: both forecasts say so, no alert, and the chart has no limit line.
    await page.getByRole('button', { name: 'Count now' }).click();
    await expect.poll(() => page.getByTestId('run-result').textContent()).toMatch(/^Counted 1 table for [A-Z][a-z]{2} \d{1,2}, \d{4}\.$/);
    const counted = async () =>
      JSON.parse((await page.getByTestId('usage-chart').getAttribute('data-series')) ?? '[]') as Array<{ date: string }>;
    await expect.poll(async () => (await counted()).length).toBe(1);
    const today = (await counted())[0].date;
    const forecast = (metric: 'RECORDS' | 'STORAGE') => page.getByTestId('forecast').locator(`dd[data-metric="${metric}"]`).textContent();
    expect(await forecast('RECORDS')).toBe('No limit');
    expect(await forecast('STORAGE')).toBe('No limit');
    expect(await page.getByTestId('limits').textContent()).toBe(
      'PlanNoneRecordsno limitAttachment storageno limitAlerts at80 %, 95 %, 100 % of each limit',
    );
    await page.getByText('No alert yet').waitFor();
    expect(await page.getByTestId('usage-chart').getAttribute('data-limit')).toBeNull();
    await expect.poll(() => page.locator('.chart canvas').count()).toBe(1);
    expect(await redPixels(page)).toBe(0);

    // Two weeks of history before today, 2 records a day up to today's 30 (written as the daily counts would).
    const usageBaseId = fromGlobalId(decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!))!.parts[0];
    for (let back = 14; back >= 1; back -= 1) {
      const table = {
        tableId: base.tables[0].id,
        tableName: base.tables[0].name,
        recordCount: 30 - 2 * back,
        storageBytes: 0,
        fileCount: 0,
      };
      await app!.running.services.snapshots.record(usageBaseId, dayOffset(today, -back), [table], new Date());
    }
    await expect
      .poll(async () => JSON.parse((await page.getByTestId('usage-chart').getAttribute('data-series'))!).length, { timeout: 10_000 })
      .toBe(15);

    // A record limit of its own, alerts at 50, 80 and 100 %.
    await page.getByLabel('Plan').selectOption('CUSTOM');
    await page.getByLabel('Record limit').fill('50');
    // The API's refusal is shown, and nothing is saved.
    await page.getByLabel('Alert thresholds (%)').fill('50, 50');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/repeat/);
    expect(await page.getByTestId('limits').textContent()).toContain('PlanNone');
    await page.getByLabel('Alert thresholds (%)').fill('50, 80, 100');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await page.getByText('Limits saved.').waitFor();
    // The button pressed has the focus back once its work is done (it was disabled meanwhile).
    await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Save limits');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByTestId('limits').textContent()).toBe(
      'PlanCustom limitsRecords50Attachment storageno limitAlerts at50 %, 80 %, 100 % of each limit',
    );
    await page
      .getByRole('img', {
        name: 'Records per table over 15 counted days, and the limit of 50 as a dashed red line; the numbers are in the tables below',
      })
      .waitFor();
    expect(await page.getByTestId('usage-chart').getAttribute('data-limit')).toBe('50');
    await expect.poll(() => redPixels(page)).toBeGreaterThan(100);
    // 30 today at 2 a day: 50 in 10 days.
    expect(await forecast('RECORDS')).toMatch(
      new RegExp(
        `^Full around ${dayOffset(today, 10)} \\(between \\d{4}-\\d{2}-\\d{2} and \\d{4}-\\d{2}-\\d{2}\\), growing 2 records a day$`,
      ),
    );
    expect(await forecast('STORAGE')).toBe('No limit');
    // The summary band says the same as REST: the latest count with its share of the limit, when it is full, the
    // last count and the next in the viewer's zone, and the audit log (not watching this base).
    const rest = async (path: string) => (await page.request.get(`${app!.url}${path}`)).json();
    const latest = (await rest(`/usage/bases/${usageBaseId}/snapshots/latest`)).day;
    const { limits } = await rest(`/usage/bases/${usageBaseId}/limits`);
    const { forecasts } = await rest(`/usage/bases/${usageBaseId}/forecast`);
    const { nextRunAt } = await rest(`/usage/bases/${usageBaseId}/schedule`);
    const asDay = (day: string) =>
      page.evaluate((d) => new Date(`${d}T00:00:00Z`).toLocaleDateString(undefined, { timeZone: 'UTC', dateStyle: 'medium' }), day);
    const asInstant = (at: string) =>
      page.evaluate((t) => new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }), at);
    const stat = (name: string) => page.getByTestId(`summary-${name}`).textContent();
    expect(await stat('records')).toBe(
      `Records${latest.totals.recordCount}${Math.round((latest.totals.recordCount / limits.recordLimit) * 100)} % of ${limits.recordLimit}`,
    );
    expect(await stat('storage')).toBe(`Attachment storage${latest.totals.storageBytes} bytesNo limit set`);
    const recordForecast = forecasts.find((f: { metric: string }) => f.metric === 'records');
    expect(await stat('full')).toBe(`Full around${await asDay(recordForecast.reachesOn)}the record limit`);
    expect(await stat('last-count')).toBe(`Last count${await asDay(latest.date)}no scheduled run yet`);
    const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(await stat('next-run')).toBe(`Next run${await asInstant(nextRunAt)}your time; daily at 00:00 ${browserZone}`);
    expect(await stat('audit')).toBe('Audit logOffMonitor this base');
    // Storage has no limit: no line there.
    await page.getByLabel('Attachment storage', { exact: true }).check();
    await page.getByRole('img', { name: /^Attachment storage per table over 15 counted days; the numbers/ }).waitFor();
    await expect.poll(() => redPixels(page)).toBe(0);
    await page.getByLabel('Records', { exact: true }).check();
    await expect.poll(() => redPixels(page)).toBeGreaterThan(100);
    expect(await page.getByText('No alert yet').count()).toBe(1);

    // The next count is at 60 % of the limit: the 50 % threshold is crossed, 80 % is not.
    await page.getByRole('button', { name: 'Count now' }).click();
    await expect
      .poll(() => page.getByTestId('base-alerts').locator('li').allTextContents(), { timeout: 10_000 })
      .toEqual([`Records reached 50 % of the limit: 30 of 50 (60 %) on ${today}`]);

    // A named plan fills both limits.
    await page.getByLabel('Plan').selectOption('FREE');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await expect
      .poll(() => page.getByTestId('limits').textContent())
      .toBe('PlanFreeRecords1,000Attachment storage1 GiBAlerts at50 %, 80 %, 100 % of each limit');
    await page.getByRole('img', { name: /and the limit of 1,000 as a dashed red line/ }).waitFor();
    // 970 to go at 2 a day is more than a year; storage does not grow.
    expect(await forecast('RECORDS')).toBe('Not within a year at the recent pace');
    expect(await forecast('STORAGE')).toBe('Not within a year at the recent pace');
    await page.getByLabel('Attachment storage', { exact: true }).check();
    await page.getByRole('img', { name: /^Attachment storage .* and the limit of 1 GiB as a dashed red line/ }).waitFor();
    await page.getByLabel('Records', { exact: true }).check();

    // Counting: what today's count spent, and counting only on days with changes (kept across a reload).
    const spentToday = await page.getByTestId('count-calls').locator('tbody tr').first().textContent();
    expect(spentToday).toMatch(new RegExp(`^${today}[1-9]\\d*$`));
    expect(await page.getByTestId('counting-cost').textContent()).toMatch(
      /^The last 15 counted days spent [1-9]\d* upstream API calls; days carried over saved 0 calls\.$/,
    );
    await page.getByTestId('audit-not-watched').getByText('monitoring config with scope “all”').waitFor();
    const onlyWhenChanged = page.getByLabel('Count only on days with changes');
    expect(await onlyWhenChanged.isChecked()).toBe(false);
    await onlyWhenChanged.check();
    await page.getByText('Counting only on days with changes.').waitFor();
    expect(await audit(page)).toEqual({ violations: [], overflows: false });
    await page.reload();
    await page.getByRole('heading', { name: 'Insight CRM', level: 1 }).waitFor();
    await expect.poll(() => page.getByLabel('Count only on days with changes').isChecked()).toBe(true);

    // The overview: the newest alerts, linking to their base, and this month's API calls.
    // 30 of a limit of 32 (94 %) is past the first threshold: the overview says the base needs attention.
    const { csrfToken } = await rest('/auth/session');
    const near = await page.request.put(`${app!.url}/usage/bases/${usageBaseId}/limits`, {
      data: { recordLimit: 32 },
      headers: { 'x-csrf-token': csrfToken },
    });
    expect(near.status()).toBe(200);
    await page.getByRole('link', { name: 'All tracked bases' }).click();
    await expect.poll(() => page.getByTestId('needs-attention').textContent()).toBe('Insight CRMRecords at 94 % of the limit');
    expect(await page.getByTestId('overview').textContent()).toContain('Need attention1');
    expect(
      await page
        .getByRole('table', { name: 'Tracked bases' })
        .getByRole('row', { name: /Insight CRM/ })
        .textContent(),
    ).toContain('30 94 % of 32');
    const alerts = page.getByTestId('recent-alerts').locator('li');
    await expect
      .poll(() => alerts.allTextContents())
      .toEqual([`Insight CRM: Records reached 50 % of the limit: 30 of 50 (60 %) on ${today}`]);
    const total = page.getByTestId('api-calls-total');
    await expect
      .poll(() => total.textContent())
      .toMatch(/^[1-9][\d,]* upstream API calls in \d{4}-\d{2} \(UTC\) so far; about [1-9][\d,]* by the month’s end at this pace\.$/);
    const calls = (text: string | null) => Number(text!.replace(/\D/g, ''));
    const byPurpose = await page.getByTestId('api-calls-by-purpose').locator('tr').allTextContents();
    expect(byPurpose.map((row) => row.replace(/[\d,]+$/, ''))).toEqual([
      'Usage counts',
      'Audit log',
      'Upstream webhooks',
      'Look-ups and checks',
    ]);
    expect(calls(byPurpose[0])).toBeGreaterThan(0);
    expect(byPurpose.reduce((sum, row) => sum + calls(row), 0)).toBe(calls((await total.textContent())!.split(' upstream')[0]));
    expect(await page.getByTestId('api-calls-by-base').locator('tr').allTextContents()).toEqual([
      expect.stringMatching(/^Insight CRM[1-9][\d,]*$/),
    ]);
    expect(await audit(page)).toEqual({ violations: [], overflows: false });
    await page.getByTestId('recent-alerts').getByRole('link', { name: 'Insight CRM' }).click();
    await page.getByRole('heading', { name: 'Insight CRM', level: 1 }).waitFor();
    expect(outside).toEqual([]);
    await context.close();
  }, 90_000);
});
