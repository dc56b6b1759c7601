import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Debian's chromium (`.ci/run` installs it); CHROMIUM_PATH points elsewhere. */
const executable = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
/** As the machine notes say: without the background-networking flags Chromium keeps dialling out of a closed network. */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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

describe('the offline GraphQL IDE at /graphql/ide', () => {
  it('loads from our own assets only and runs a query with the API key set in its environment', async ({ skip }) => {
    if (!executable) {
      const reason = 'no Chromium found (CHROMIUM_PATH, /usr/bin/chromium): install it with `apt-get install -y chromium`';
      console.warn(`skipped: ${reason}`);
      return skip(reason);
    }
    const page = await browser!.newPage();
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(app!.url) && !/^(data|blob|about):/.test(url)) elsewhere.push(url);
    });
    await page.goto(`${app!.url}/graphql/ide`);
    await page.getByText('No environment').click();
    await page.getByText('Environments...').click();
    await page.locator('.cm-content').filter({ hasText: 'apiKey' }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(JSON.stringify({ apiKey: app!.apiKey }));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Manage your environment variables').waitFor({ state: 'hidden' });
    await page.getByText('Send Request').click();
    const result = page.locator('.cm-content').filter({ hasText: '"viewer"' });
    await result.waitFor({ timeout: 15_000 });
    const answer = JSON.parse(await result.innerText());
    expect(answer.data.viewer.name).toBe('first');
    expect(elsewhere).toEqual([]);
  });
});
