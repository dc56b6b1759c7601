import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/server.js';
import { buildWeb } from '../web/build.mjs';
import { benchConfig } from './support/bench-config.js';
import { count, kib, ms, verdict, type ReportTable } from './support/markdown.js';
import { lighthouseTable } from './support/lighthouse-run.js';
import { progress } from './support/progress.js';
import { withTempDir } from './support/temp-dir.js';

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const COLD_LOADS = 7;
const JS_TARGET_BYTES = 250 * 1024;
const INTERACTIVE_TARGET_MS = 1000;

/**
 * `npm run bench -- web`: the built application in headless Chromium on the demo data. The first page's JavaScript as
 * transferred (gzip) and its time to interactive (navigation to an enabled sign-in button, cold cache, median), then
 * the GraphQL requests each signed-in page view makes.
 */
export async function runWebBench(): Promise<ReportTable[]> {
  if (!CHROMIUM) throw new Error('the web bench needs Chromium (CHROMIUM_PATH or /usr/bin/chromium)');
  progress('web: building the application');
  await buildWeb();
  return withTempDir('basewatch-bench-web-', async (dir) => {
    const config = benchConfig(join(dir, 'bench.sqlite'));
    const running = await startServer(config, createLogger('silent'));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    try {
      const first = await measureFirstPage(running.url, () => browser.newContext());
      const context = await browser.newContext();
      const { table: pages, basePath } = await countRequestsPerPage(await context.newPage(), running.url);
      const session = (await context.cookies(running.url)).find((cookie) => cookie.name === 'basewatch_session');
      const cookie = session && `${session.name}=${session.value}`;
      progress('web: Lighthouse on sign-in, Usage and a base page');
      const audits = await lighthouseTable(CHROMIUM, FLAGS, [
        { label: 'sign-in', url: `${running.url}/sign-in` },
        { label: 'Usage', url: `${running.url}/`, cookie },
        { label: 'a base', url: `${running.url}${basePath}`, cookie },
      ]);
      return [first, pages, audits];
    } finally {
      await browser.close();
      await running.close();
    }
  });
}

async function measureFirstPage(url: string, newContext: () => Promise<import('playwright-core').BrowserContext>): Promise<ReportTable> {
  const times: number[] = [];
  let scriptBytes = 0;
  let cssBytes = 0;
  for (let i = 0; i < COLD_LOADS; i += 1) {
    const context = await newContext();
    const page = await context.newPage();
    let js = 0;
    let css = 0;
    page.on('requestfinished', async (request) => {
      const { responseBodySize } = await request.sizes();
      if (request.resourceType() === 'script') js += responseBodySize;
      if (request.resourceType() === 'stylesheet') css += responseBodySize;
    });
    const started = performance.now();
    await page.goto(`${url}/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    times.push(performance.now() - started);
    await page.waitForLoadState('networkidle');
    scriptBytes = js;
    cssBytes = css;
    await context.close();
  }
  const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
  return {
    title: 'First page (sign-in), cold cache',
    headers: ['measure', 'figure', 'target', 'verdict'],
    rows: [
      [
        'JavaScript transferred (gzip)',
        `${count(scriptBytes)} bytes (${kib(scriptBytes)})`,
        `≤ ${kib(JS_TARGET_BYTES)}`,
        verdict(scriptBytes <= JS_TARGET_BYTES),
      ],
      ['CSS transferred (gzip)', `${count(cssBytes)} bytes`, '', ''],
      [
        `time to interactive, median of ${COLD_LOADS}`,
        ms(median),
        `≤ ${ms(INTERACTIVE_TARGET_MS)}`,
        verdict(median <= INTERACTIVE_TARGET_MS),
      ],
    ],
    notes: [
      `All ${COLD_LOADS} loads: ${times.map((t) => ms(t)).join(', ')}. Interactive: navigation start to the sign-in button, in the page's fresh context.`,
    ],
  };
}

/**
 * Signs up, then loads each page afresh (an empty Apollo cache: what a first view costs) and counts its /graphql
 * requests until it settles. Moving between pages in the application asks again only for what is not cached yet.
 */
async function countRequestsPerPage(page: Page, url: string): Promise<{ table: ReportTable; basePath: string }> {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.url() === `${url}/graphql`)
      seen.push((JSON.parse(request.postData() ?? '{}') as { operationName?: string }).operationName ?? '?');
  });
  await page.goto(`${url}/sign-up`);
  await page.getByLabel('E-mail').fill(`bench-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
  await settle(page);
  const picker = page.getByLabel('Track a base of your Airtable account');
  // The demo bases are read upstream: on a busy machine that can take a while.
  await picker.locator('option').nth(1).waitFor({ state: 'attached', timeout: 120_000 });
  await picker.selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Track base' }).click();
  await page.getByRole('button', { name: 'Count now' }).waitFor();
  await page.getByRole('button', { name: 'Count now' }).click();
  await page.getByTestId('run-result').waitFor();

  const rows: string[][] = [];
  const visit = async (label: string, open: () => Promise<void>, heading: string | RegExp) => {
    seen.length = 0;
    await open();
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await settle(page);
    rows.push([label, String(seen.length), seen.join(', '), verdict(seen.length <= 1)]);
  };
  const basePath = new URL(page.url()).pathname;
  const load = (path: string) => async () => void (await page.goto(`${url}${path}`));
  await visit('Usage', load('/'), 'Usage');
  await visit('a base', load(basePath), /.+/);
  await visit('Audit log', load('/audit-log'), 'Audit log');
  await visit('Webhooks', load('/forwarding'), 'Webhooks');
  await visit('Settings', load('/settings'), 'Settings');
  const table = {
    title: 'GraphQL requests per page view (signed in, demo data)',
    headers: ['page', 'requests', 'operations', 'one query (target)'],
    rows,
    notes: [
      'Each page loaded afresh (empty cache), counted until no request was in flight for 0.5 s. Every load also calls GET /auth/session, and Settings GET /auth/sessions (REST).',
    ],
  };
  return { table, basePath };
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(500);
}
