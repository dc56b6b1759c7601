import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { CHROMIUM_FLAGS, chromiumExecutable, NO_CHROMIUM } from '../graphql/support/chromium.js';
import { DEMO_BASES } from '../support/factories.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Receiver } from '../webhooks/support/receiver.js';
import { deliveryEnv } from '../webhooks/support/webhook-support.js';
import { audit, openPhone, signUpInPage } from './support/browser-pages.js';

let app: TestApp | undefined;
let receiver: Receiver | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!chromiumExecutable) return;
  await buildWeb();
  receiver = await new Receiver().start();
  app = await startTestApp(deliveryEnv(receiver.port, { AUDIT_POLL_INTERVAL_SECONDS: '1' }));
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  browser = await chromium.launch({ executablePath: chromiumExecutable, args: CHROMIUM_FLAGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await receiver?.stop();
});

describe('the audit log pages', () => {
  it('monitors a base picked from the upstream and shows a sandbox change live, with its diff and the filters', async ({ skip }) => {
    if (!chromiumExecutable) return skip(NO_CHROMIUM);
    const { context, page, outside } = await openPhone(browser!, app!.url);
    const email = await signUpInPage(page, app!.url);
    const operations: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/graphql') operations.push(request.postDataJSON()?.operationName ?? request.method());
    });
    const pushed: string[] = [];
    page.on('websocket', (socket) => {
      if (new URL(socket.url()).pathname === '/graphql') socket.on('framereceived', ({ payload }) => pushed.push(String(payload)));
    });
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByText('No base is monitored yet').waitFor();
    const monitored = page.getByLabel('Base to monitor');
    await expect.poll(() => monitored.locator('option').allTextContents()).toContain(DEMO_BASES.catalog);
    await monitored.selectOption({ label: DEMO_BASES.catalog });
    await page.getByLabel('Base for the Changes table').selectOption({ label: DEMO_BASES.changeLog });
    await page.getByLabel('What to log').selectOption('RECORDS_ONLY');
    expect(await audit(page)).toEqual({ violations: [], overflows: false });
    await page.getByRole('button', { name: 'Start monitoring' }).click();
    await page.getByRole('heading', { name: `Changes of ${DEMO_BASES.catalog}`, level: 1 }).waitFor();
    await page.getByText('No change logged yet').waitFor();

    // Made upstream after the page opened: it is pushed over the page's WebSocket (changeLogged) and appears at the
    // top without a reload, and without the page asking over HTTP again (no polling, no refetch).
    const api = sandboxApi(app!.url);
    const baseId = (await api.call('GET', '/meta/bases')).bases.find((b: { name: string }) => b.name === DEMO_BASES.catalog).id;
    const suppliers = (await api.schema(baseId)).find((t) => t.name === 'Suppliers')!;
    const primary = suppliers.fields.find((f) => f.id === suppliers.primaryFieldId)!;
    await api.createRecords(baseId, suppliers.id, [{ [primary.name]: 'Live supplier' }], { source: 'client', email, name: 'Ada' });
    const list = page.getByTestId('changes');
    await expect.poll(() => list.textContent(), { timeout: 20_000 }).toContain('Live supplier');
    expect(pushed.some((frame) => frame.includes('"changeLogged"') && frame.includes('Live supplier'))).toBe(true);
    expect(operations.filter((name) => name === 'Changes')).toHaveLength(1);
    expect(await page.getByText(/^1 change, newest first/).count()).toBe(1);
    const text = (await list.locator('li').first().textContent())!;
    // Names, not ids: the event, the table, the record by its primary field's value, the diff's field, the source.
    expect(text).toMatch(/^Record created in Suppliers · “Live supplier” · /);
    expect(text).toContain('Ada · Airtable app');
    expect(text).toContain(`${primary.name}Live supplier`);
    expect(text).not.toMatch(/(fld|rec|tbl)[A-Za-z0-9]{14}/);
    expect(await audit(page)).toEqual({ violations: [], overflows: false });

    await page.getByLabel('Event').selectOption('RECORD_DELETE');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No change matches these filters').waitFor();
    await page.getByLabel('Event').selectOption('RECORD_CREATE');
    await page.getByLabel('Table').selectOption({ label: 'Suppliers' });
    await page.getByLabel('User e-mail').fill(email);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => list.locator('li').count()).toBe(1);
    // Filtered, the page asks the server again on each pushed change: a matching one shows up.
    await api.createRecords(baseId, suppliers.id, [{ [primary.name]: 'Second supplier' }], { source: 'client', email, name: 'Ada' });
    await expect.poll(() => list.locator('li').first().textContent(), { timeout: 20_000 }).toContain('Second supplier');
    expect(await list.locator('li').count()).toBe(2);
    // A record picked by its primary field's value from the records the log shows; its id works as well.
    await page.getByLabel('Record', { exact: true }).fill('Live supplier (Suppliers)');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => list.locator('li').count()).toBe(1);
    expect(await list.locator('li').first().textContent()).toContain('“Live supplier”');
    const liveId = (await api.listRecords(baseId, suppliers.id)).records.find(
      (r: { fields: Record<string, unknown> }) => r.fields[primary.name] === 'Second supplier',
    ).id;
    await page.getByLabel('Record', { exact: true }).fill(liveId);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => list.locator('li').first().textContent()).toContain('“Second supplier”');
    expect(await list.locator('li').count()).toBe(1);
    await page.getByLabel('Record', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => list.locator('li').count()).toBe(2);

    // The day range in a zone the viewer picks (the config's by default; the page made it in the browser's): today at UTC+14 is a day or two after
    // today at UTC−11, so the same day matches the changes in one zone and none in the other.
    const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(await page.getByLabel('Zone of the days').inputValue()).toBe(browserZone);
    const kiritimatiToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
    await page.getByLabel('Zone of the days').selectOption('Pacific/Kiritimati');
    await page.getByLabel('From day (Pacific/Kiritimati)').fill(kiritimatiToday);
    await page.getByLabel('To day (Pacific/Kiritimati)').fill(kiritimatiToday);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => list.locator('li').count()).toBe(2);
    // The form keeps what is in force once the filtered page has loaded.
    expect(await page.getByLabel('Event').inputValue()).toBe('RECORD_CREATE');
    expect(await page.getByLabel('From day (Pacific/Kiritimati)').inputValue()).toBe(kiritimatiToday);
    await page.getByLabel('Zone of the days').selectOption('Pacific/Pago_Pago');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No change matches these filters').waitFor();
    expect(await audit(page)).toEqual({ violations: [], overflows: false });

    // Names as they are now: a renamed field shows its new name; a deleted one keeps its id, marked.
    const rating = (await api.createField(baseId, suppliers.id, { name: 'Rating', type: 'number', options: { precision: 0 } })) as {
      id: string;
    };
    await api.createRecords(baseId, suppliers.id, [{ [primary.name]: 'Rated supplier', Rating: 4 }], {
      source: 'client',
      email,
      name: 'Ada',
    });
    await api.deleteField(baseId, suppliers.id, rating.id);
    await api.updateField(baseId, suppliers.id, primary.id, { name: 'Supplier name' });
    // Reloaded until the watch has logged the new record (its live arrival is proven above): the names are under test.
    await expect
      .poll(
        async () => {
          await page.reload();
          await list.locator('li').first().waitFor();
          return list.locator('li').first().textContent();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toContain('“Rated supplier”');
    const rated = (await list.locator('li').first().textContent())!;
    expect(rated).toContain('Supplier nameRated supplier');
    expect(rated).toContain(`${rating.id} deleted field4`);
    expect(await list.locator('li').nth(1).textContent()).toContain('Supplier nameSecond supplier');

    // A record the log names by id only (an update of another field) is found by its primary field's value in the
    // base's mirror as it is typed, picked from the list, and filters the changes.
    const [demo] = (await api.listRecords(baseId, suppliers.id)).records as Array<{ id: string; fields: Record<string, unknown> }>;
    const demoName = String(demo!.fields['Supplier name']);
    await api.updateRecords(baseId, suppliers.id, [{ id: demo!.id, fields: { Email: 'found@example.com' } }], { source: 'client', email });
    await expect.poll(() => list.locator('li').first().textContent(), { timeout: 20_000 }).toContain('found@example.com');
    const record = page.getByLabel('Record', { exact: true });
    const listed = () =>
      page.locator('#f-record-list option').evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    expect(await listed()).not.toContain(`${demoName} (Suppliers)`);
    await record.fill(demoName.slice(2, -1).toUpperCase());
    await expect.poll(listed, { timeout: 20_000 }).toContain(`${demoName} (Suppliers)`);
    expect(operations).toContain('FindRecords');
    await record.fill(`${demoName} (Suppliers)`);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => list.locator('li').count()).toBe(1);
    expect(await list.locator('li').first().textContent()).toContain('found@example.com');
    expect(await page.getByLabel('Record', { exact: true }).inputValue()).toBe(`${demoName} (Suppliers)`);
    expect(await audit(page)).toEqual({ violations: [], overflows: false });
    expect(outside).toEqual([]);
    await context.close();
  }, 90_000);
});

describe('the webhooks page', () => {
  it('creates a webhook picked from the upstream, shows its secret once, logs the delivery of a sandbox change, rotates and deletes', async ({
    skip,
  }) => {
    if (!chromiumExecutable) return skip(NO_CHROMIUM);
    const { context, page, outside } = await openPhone(browser!, app!.url);
    const pushed: string[] = [];
    page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => pushed.push(String(payload))));
    await signUpInPage(page, app!.url);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No webhook yet').waitFor();

    const base = page.getByLabel('Base');
    await expect.poll(() => base.locator('option').allTextContents()).toContain(DEMO_BASES.marketing);
    await base.selectOption({ label: DEMO_BASES.marketing });
    const table = page.getByLabel('Table');
    await expect.poll(() => table.locator('option').count()).toBeGreaterThan(1);
    const tableName = (await table.locator('option').nth(1).textContent())!;
    await table.selectOption({ label: tableName });
    await page.getByLabel('Event').selectOption('RECORD_CREATE');
    await page.getByLabel('URL').fill(receiver!.url('/from-the-page'));
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    // Shown at the top of the page, focused so it is in view and read out, with a copy button.
    await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.dataset.testid')).toBe('secret-notice');
    expect(
      await page
        .getByTestId('secret-notice')
        .evaluate((notice) => notice.getBoundingClientRect().top < notice.ownerDocument.documentElement.clientHeight),
    ).toBe(true);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app!.url });
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret);
    expect(await audit(page)).toEqual({ violations: [], overflows: false });
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('webhook').waitFor();
    expect(await page.getByTestId('webhook').textContent()).toContain(receiver!.url('/from-the-page'));
    expect(await page.getByTestId('webhook').textContent()).toMatch(
      new RegExp(`^Record created in ${tableName} of ${DEMO_BASES.marketing}`),
    );

    // A record made upstream → ping → ingestion → delivery to the receiver → in the page's delivery log.
    const api = sandboxApi(app!.url);
    const baseId = (await api.call('GET', '/meta/bases')).bases.find((b: { name: string }) => b.name === DEMO_BASES.marketing).id;
    const tableId = (await api.schema(baseId)).find((t) => t.name === tableName)!.id;
    // The log open first: the delivery appears in it without a reload, pushed by deliveryAttempted.
    await page.getByRole('button', { name: 'Delivery log' }).click();
    const log = page.getByTestId('delivery-log');
    await log.getByText('No delivery yet').waitFor();
    await api.createRecords(baseId, tableId, [{}]);
    await receiver!.waitFor('/from-the-page', 1);
    await expect.poll(() => log.textContent(), { timeout: 15_000 }).toMatch(/Succeeded · Record created \(1 change\).*HTTP 200 in \d+ ms/);
    expect(pushed.some((frame) => frame.includes('"deliveryAttempted"'))).toBe(true);
    expect(await audit(page)).toEqual({ violations: [], overflows: false });

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('button', { name: 'Yes, rotate' }).click();
    const rotated = (await page.getByTestId('webhook-secret').textContent())!;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('No webhook yet').waitFor();
    expect(outside).toEqual([]);
    await context.close();
  }, 60_000);

  it('still lists the webhooks when the upstream fails, beside the error (its bases are a nullable field)', async ({ skip }) => {
    if (!chromiumExecutable) return skip(NO_CHROMIUM);
    const { context, page } = await openPhone(browser!, app!.url);
    await signUpInPage(page, app!.url);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const base = page.getByLabel('Base');
    await expect.poll(() => base.locator('option').allTextContents()).toContain(DEMO_BASES.catalog);
    await base.selectOption({ label: DEMO_BASES.catalog });
    await page.getByLabel('Event').selectOption('TABLE_CREATE');
    await page.getByLabel('URL').fill(receiver!.url('/while-upstream-fails'));
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('webhook').waitFor();

    app!.running.sandbox!.faults.update({ errorRate: 1, errorStatus: 503 });
    try {
      await page.reload();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toMatch(/upstream/i);
      expect(await page.getByTestId('webhook').textContent()).toContain(receiver!.url('/while-upstream-fails'));
    } finally {
      app!.running.sandbox!.faults.update({ errorRate: 0 });
    }
    await context.close();
  }, 60_000);
});
