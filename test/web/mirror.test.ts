import { createRequire } from 'node:module';
import { DateTime } from 'luxon';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { AUDIT_APP_ENV, relaxSandboxRateLimit } from '../audit/audit-support.js';
import { CHROMIUM_FLAGS, chromiumExecutable, NO_CHROMIUM } from '../graphql/support/chromium.js';
import { DEMO_BASES } from '../support/factories.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { auditBothWidths, CLEAN_AT_BOTH_WIDTHS, signUpInPage } from './support/browser-pages.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** The viewer's zone: far from the machine's, so an instant typed as UTC or as the machine's time would miss. */
const ZONE = 'Pacific/Kiritimati';
const WIDE = { width: 1280, height: 900 };

let app: TestApp | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!chromiumExecutable) return;
  await buildWeb();
  app = await startTestApp(AUDIT_APP_ENV);
  relaxSandboxRateLimit(app);
  browser = await chromium.launch({ executablePath: chromiumExecutable, args: CHROMIUM_FLAGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/**
 * The page at 1280 and 390 px (axe's serious and critical violations, nothing wider than the viewport, a screenshot
 * of each), then every violation of any impact at 390 px; back at 1280 px after.
 */
async function checkBothWidths(page: Page, name: string) {
  const both = await auditBothWidths(page, name);
  await page.addScriptTag({ path: AXE });
  const anyImpact = await page.evaluate<string[]>(`axe.run(document, { resultTypes: ['violations'] }).then((result) =>
    result.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`);
  await page.setViewportSize(WIDE);
  return { ...both, anyImpact };
}
const CLEAN = { ...CLEAN_AT_BOTH_WIDTHS, anyImpact: [] };

/** The value a datetime-local input shows for an instant in the viewer's zone (whole seconds; none when :00). */
const localInput = (instant: Date) => {
  const local = DateTime.fromJSDate(instant, { zone: ZONE });
  return local.toFormat(local.second === 0 ? "yyyy-LL-dd'T'HH:mm" : "yyyy-LL-dd'T'HH:mm:ss");
};
const sleepUntil = (instant: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, instant - Date.now())));

describe('the mirror pages', () => {
  it('shows a record’s history by field name and as it was at an instant, lists deleted records, and restores with a preview', async ({
    skip,
  }) => {
    if (!chromiumExecutable) return skip(NO_CHROMIUM);
    const context = await browser!.newContext({ viewport: WIDE, bypassCSP: true, timezoneId: ZONE });
    const page = await context.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(app!.url) && !/^(data|blob|about):/.test(request.url())) outside.push(request.url());
    });
    const email = await signUpInPage(page, app!.url);

    // A monitored Project Tracker: its Tasks table has computed fields, which a restore leaves out and names.
    await page.getByRole('link', { name: 'Audit log' }).click();
    const monitored = page.getByLabel('Base to monitor');
    await expect.poll(() => monitored.locator('option').allTextContents()).toContain('Project Tracker');
    await monitored.selectOption({ label: 'Project Tracker' });
    await page.getByLabel('Base for the Changes table').selectOption({ label: DEMO_BASES.changeLog });
    await page.getByRole('button', { name: 'Start monitoring' }).click();
    await page.getByRole('heading', { name: 'Changes of Project Tracker', level: 1 }).waitFor();
    const changesUrl = page.url();

    // The seed: the Recently deleted page says where the mirror stands and asks again until it is live.
    await page.getByRole('link', { name: 'Recently deleted records' }).click();
    await page.getByRole('heading', { name: 'Recently deleted in Project Tracker', level: 1 }).waitFor();
    await expect.poll(() => page.getByTestId('mirror-state').textContent(), { timeout: 30_000 }).toContain('Mirror live');

    // Upstream: a task created, renamed a moment later by someone else; another task deleted.
    const api = sandboxApi(app!.url);
    const baseId = (await api.call('GET', '/meta/bases')).bases.find((b: { name: string }) => b.name === 'Project Tracker').id;
    const tasks = (await api.schema(baseId)).find((t) => t.name === 'Tasks')!;
    const created = await api.createRecords(
      baseId,
      tasks.id,
      [
        { Name: 'Draft plan', Estimate: 3 },
        { Name: 'Old task', Estimate: 5 },
      ],
      {
        source: 'client',
        email,
        name: 'Ada',
      },
    );
    const [planId, oldId] = created.records.map((r: { id: string }) => r.id);
    // An instant in whole seconds after the creation and before the rename (the input takes seconds).
    const between = new Date(Math.ceil((Date.now() + 1) / 1000) * 1000);
    await sleepUntil(between.getTime() + 300);
    await api.updateRecords(baseId, tasks.id, [{ id: planId, fields: { Name: 'Final plan' } }], {
      source: 'publicApi',
      email: 'bob@example.com',
    });
    await api.deleteRecords(baseId, tasks.id, [oldId], { source: 'client', email, name: 'Ada' });

    // The change browser: the rename, with a link to the record's history.
    const changes = page.getByTestId('changes');
    const rename = changes.locator('li', { hasText: 'Record updated' });
    // Loaded afresh each time: a change logged between the page's query and its subscription's start is not pushed.
    await expect
      .poll(
        async () => {
          await page.goto(changesUrl);
          await page.getByRole('heading', { name: 'Changes of Project Tracker', level: 1 }).waitFor();
          return rename.count();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBe(1);
    await rename.getByRole('link', { name: 'Record history' }).click();

    // History: newest first, the rename as a diff by field name with who and where from, then the creation.
    await page.getByRole('heading', { name: 'History of Final plan', level: 1 }).waitFor();
    const versions = page.getByTestId('versions').locator(':scope > li');
    await expect.poll(() => versions.count()).toBe(2);
    const renamed = versions.nth(0);
    expect(await renamed.locator('strong').textContent()).toBe('Changed');
    expect(await renamed.textContent()).toContain('bob@example.com · API');
    const nameLine = renamed.locator('dl.diff > div', { hasText: 'Name' }).first();
    expect(await nameLine.locator('dt').textContent()).toBe('Name');
    expect(await nameLine.locator('del').textContent()).toBe('was Draft plan');
    expect(await nameLine.locator('ins').textContent()).toBe('now Final plan');
    const creation = versions.nth(1);
    expect(await creation.locator('strong').textContent()).toBe('Created');
    expect(await creation.textContent()).toContain(`${email} · Airtable app`);
    expect(await creation.locator('dl.diff > div', { hasText: 'Estimate' }).locator('dd').textContent()).toBe('3');
    expect(await page.locator('main').textContent()).not.toMatch(/fld[A-Za-z0-9]{14}/);
    expect(await checkBothWidths(page, 'mirror-history')).toEqual(CLEAN);

    // As it was at an instant typed in the viewer's zone: the old name.
    const instant = page.getByLabel(`Instant, in your time zone (${ZONE})`);
    await instant.fill(localInput(between));
    await page.getByRole('button', { name: 'Show the record then' }).click();
    const then = page.getByTestId('record-at');
    await expect.poll(() => then.locator('dl div', { hasText: 'Name' }).first().locator('dd').textContent()).toBe('Draft plan');
    expect(await then.textContent()).not.toContain('Final plan');
    expect(await checkBothWidths(page, 'mirror-record-at')).toEqual(CLEAN);

    // Restore from the change browser: the rename's overwritten value comes back, after a preview.
    await page.goto(changesUrl);
    await rename.getByRole('button', { name: 'Restore the values before this change…' }).click();
    const preview = page.getByTestId('restore-preview');
    await preview.waitFor();
    expect(await preview.textContent()).not.toContain('re-create');
    expect(await preview.textContent()).toMatch(/1 record whose fields are set back to their values at .* \(only Name\)/);
    // The value it holds now and the one it gets back, by field name (the computed ones the change touched left out).
    const back = preview.locator('dl.diff > div');
    await expect.poll(() => back.count()).toBe(1);
    expect(await back.locator('dt').textContent()).toBe('Name');
    expect(await back.locator('del').textContent()).toBe('now Final plan');
    expect(await back.locator('ins').textContent()).toBe('back to Draft plan');
    expect(await checkBothWidths(page, 'mirror-restore-change-preview')).toEqual(CLEAN);
    await page.getByRole('button', { name: 'Restore 1 record' }).click();
    await expect.poll(() => page.getByTestId('restore-result').textContent(), { timeout: 20_000 }).toContain('1 record set back');
    const upstreamName = async (recordId: string) => (await api.call('GET', `/${baseId}/${tasks.id}/${recordId}`)).fields.Name;
    expect(await upstreamName(planId)).toBe('Draft plan');

    // Recently deleted: the deleted task with its last values; restored after a preview that names the computed fields.
    await page.getByRole('link', { name: 'Recently deleted records' }).click();
    await page.getByLabel('Table').selectOption({ label: 'Tasks' });
    const deleted = page.getByTestId('deleted-records');
    await expect.poll(() => deleted.textContent(), { timeout: 20_000 }).toContain('Old task');
    expect(await deleted.locator('li').first().textContent()).toContain(`by ${email}`);
    await page.getByLabel('Old task').check();
    await page.getByRole('button', { name: 'Restore 1 selected…' }).click();
    await preview.waitFor();
    expect(await preview.textContent()).toContain('1 deleted record to re-create');
    expect(await preview.textContent()).toMatch(/Left out \(computed, or no longer in the table\): .*Task ID/);
    expect(await preview.textContent()).toContain('Created By');
    expect(await preview.textContent()).not.toMatch(/fld[A-Za-z0-9]{14}/);
    expect(await checkBothWidths(page, 'mirror-restore-deleted-preview')).toEqual(CLEAN);
    await page.getByRole('button', { name: 'Restore 1 record' }).click();
    const result = page.getByTestId('restore-result');
    await expect.poll(() => result.textContent(), { timeout: 20_000 }).toContain('1 record re-created');
    const link = result.getByRole('link', { name: /^re-created as rec[A-Za-z0-9]{14}$/ });
    const newId = (await link.textContent())!.replace('re-created as ', '');
    expect(newId).not.toBe(oldId);
    expect(await upstreamName(newId)).toBe('Old task');
    expect(await checkBothWidths(page, 'mirror-restore-result')).toEqual(CLEAN);

    // The re-created record's history in the app (it reaches the mirror through the watch; the page asks again).
    await link.click();
    await page.getByRole('heading', { name: 'History of Old task', level: 1 }).waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('versions').locator(':scope > li').first().locator('strong').textContent()).toBe('Created');
    expect(page.url()).toContain(`/records/${newId}`);
    expect(await checkBothWidths(page, 'mirror-recreated-history')).toEqual(CLEAN);

    // Back in Recently deleted, the old record names its new one and cannot be picked again.
    await page.goBack();
    const restoredAs = deleted.getByTestId('restored-as');
    await expect.poll(() => restoredAs.textContent(), { timeout: 20_000 }).toBe(`Restored as ${newId}`);
    expect(await page.getByLabel('Old task').isDisabled()).toBe(true);
    expect(outside).toEqual([]);
    await context.close();
  }, 120_000);
});
