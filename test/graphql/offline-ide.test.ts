import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Debian's chromium (`.ci/run` installs it); CHROMIUM_PATH points elsewhere. */
const executable = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
/** As the machine notes say: without the background-networking flags Chromium keeps dialling out of a closed network. */
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

let app: TestApp | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!executable) return;
  app = await startTestApp();
  browser = await chromium.launch({ executablePath: executable, args: FLAGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** A page in a fresh context (its own sessionStorage), with what it asked for outside our origin and /graphql's answers. */
async function openPage(): Promise<{ page: Page; elsewhere: string[]; graphqlStatuses: { status: number; query: string }[] }> {
  const page = await (await browser!.newContext()).newPage();
  const elsewhere: string[] = [];
  const graphqlStatuses: { status: number; query: string }[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(app!.url) && !/^(data|blob|about):/.test(url)) elsewhere.push(url);
  });
  page.on('response', (response) => {
    if (response.url() === `${app!.url}/graphql`)
      graphqlStatuses.push({ status: response.status(), query: response.request().postData() ?? '' });
  });
  return { page, elsewhere, graphqlStatuses };
}

function isIntrospection(response: { url(): string; request(): { postData(): string | null } }): boolean {
  return response.url() === `${app!.url}/graphql` && (response.request().postData() ?? '').includes('__schema');
}

/** Browser code: true once Altair's IndexedDB holds an environment. */
const STORED_ENVIRONMENT = `new Promise((resolve) => {
  const open = indexedDB.open('AltairDB');
  open.onsuccess = () => {
    const keys = open.result.transaction('appState').objectStore('appState').getAllKeys();
    keys.onsuccess = () => resolve(keys.result.some((key) => String(key).endsWith('::environments')));
  };
})`;

async function submitKey(page: Page, key: string) {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Open the IDE' }).click();
}

// A minute a test, as the other browser tests have: Altair is a large page, and a loaded machine starts it slowly.
describe('the offline GraphQL IDE at /graphql/ide', { timeout: 60_000 }, () => {
  it('asks for the API key first, then introspects with it, runs a query and loads from our own assets only', async ({ skip }) => {
    if (!executable) {
      const reason = 'no Chromium found (CHROMIUM_PATH, /usr/bin/chromium): install it with `apt-get install -y chromium`';
      console.warn(`skipped: ${reason}`);
      return skip(reason);
    }
    const { page, elsewhere, graphqlStatuses } = await openPage();
    await page.goto(`${app!.url}/graphql/ide`);
    const introspection = page.waitForResponse(isIntrospection, { timeout: 15_000 });
    await submitKey(page, app!.apiKey);
    expect((await introspection).status()).toBe(200);
    await page.getByText('Send Request').click();
    const result = page.locator('.cm-content').filter({ hasText: '"viewer"' });
    await result.waitFor({ timeout: 15_000 });
    const answer = JSON.parse((await result.textContent()) ?? '');
    expect(answer.data.viewer.name).toBe('first');

    // The tab keeps the key: a reload starts Altair without asking; "Change API key" asks again.
    const again = page.waitForResponse(isIntrospection, { timeout: 15_000 });
    await page.reload();
    expect((await again).status()).toBe(200);
    await page.getByRole('button', { name: 'Change API key' }).click();
    expect(await page.getByLabel('API key').inputValue()).toBe('');
    expect(await page.evaluate<string>('JSON.stringify(localStorage)')).not.toContain(app!.apiKey);

    expect(graphqlStatuses.filter((r) => r.status === 401)).toEqual([]);
    expect(elsewhere).toEqual([]);
  });

  it('starts Altair with the key from the form even when Altair stored another environment earlier', async ({ skip }) => {
    if (!executable) return skip('no Chromium found');
    const { page, graphqlStatuses } = await openPage();
    await page.goto(`${app!.url}/graphql/ide/`);
    await submitKey(page, app!.apiKey);
    // As the IDE used to be set up: a key typed into Altair's environment, which Altair keeps in IndexedDB.
    await page.getByText('No environment').click();
    await page.getByText('Environments...').click();
    await page.locator('.cm-content').filter({ hasText: 'apiKey' }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(JSON.stringify({ apiKey: 'sk_anoldrevokedkeyanoldrevokedkey123456' }));
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.evaluate<boolean>(STORED_ENVIRONMENT), { timeout: 10_000 }).toBe(true);

    await page.getByRole('button', { name: 'Change API key' }).click();
    await submitKey(page, app!.apiKey);
    const query = page.waitForResponse(
      (response) => response.url() === `${app!.url}/graphql` && /viewer/.test(response.request().postData() ?? ''),
    );
    await page.getByText('Send Request').click();
    expect((await query).status()).toBe(200);
    expect(graphqlStatuses.filter((r) => r.status === 401)).toEqual([]);
  });

  it('tells the user when the key is refused, and does not start Altair with it', async ({ skip }) => {
    if (!executable) return skip('no Chromium found');
    const { page, elsewhere, graphqlStatuses } = await openPage();
    await page.goto(`${app!.url}/graphql/ide/`);
    await submitKey(page, 'sk_notakeynotakeynotakeynotakeynotakey12');
    await page.getByText('This key was refused (401)').waitFor({ timeout: 15_000 });
    expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBe('true');
    expect(graphqlStatuses.map((r) => [r.status, r.query])).toEqual([[401, JSON.stringify({ query: '{ __typename }' })]]);
    expect(await page.locator('app-root').isHidden()).toBe(true);
    expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
    expect(elsewhere).toEqual([]);
  });
});

describe("GET /graphql in a browser without Apollo's CDN", () => {
  it('shows a link to the offline IDE that can be followed', async ({ skip }) => {
    if (!executable) return skip('no Chromium found');
    const { page } = await openPage();
    await page.route(
      (url) => !url.href.startsWith(app!.url),
      (route) => route.abort('internetdisconnected'),
    );
    await page.goto(`${app!.url}/graphql`);
    await page.getByRole('link', { name: 'GraphQL IDE at /graphql/ide/' }).click();
    await page.getByLabel('API key').waitFor();
    expect(page.url()).toBe(`${app!.url}/graphql/ide/`);
  });
});
