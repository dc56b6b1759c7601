import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
export const PASSWORD = 'correct horse battery';
export const uniqueEmail = () => `web-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** A phone-sized page (390 px) in a fresh context; axe-core is injected by the test, so the page's CSP is bypassed. */
export async function openPhone(browser: Browser, appUrl: string): Promise<{ context: BrowserContext; page: Page; outside: string[] }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
  const page = await context.newPage();
  const outside: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(appUrl) && !/^(data|blob|about):/.test(request.url())) outside.push(request.url());
  });
  return { context, page, outside };
}

/** Serious and critical axe-core violations of the page as it is now, and whether it scrolls sideways at 390 px. */
export async function audit(page: Page): Promise<{ violations: string[]; overflows: boolean }> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate<string[]>(`axe.run(document, { resultTypes: ['violations'] }).then((result) =>
    result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`);
  const overflows = await page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');
  return { violations, overflows };
}

/** Signs up a new person through the sign-up page; leaves the page on Usage. */
export async function signUpInPage(page: Page, appUrl: string, email = uniqueEmail()): Promise<string> {
  await page.goto(`${appUrl}/sign-up`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
  return email;
}
