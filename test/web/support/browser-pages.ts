import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROOT } from '../../support/processes.js';

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

/** Serious and critical axe-core violations of the page as it is now (WCAG 2.2's target size too), and whether it scrolls sideways at 390 px. */
export async function audit(page: Page): Promise<{ violations: string[]; overflows: boolean }> {
  await page.addScriptTag({ path: AXE });
  // target-size (WCAG 2.2 AA, 24 px targets) is off in axe's defaults; Lighthouse counts it, so it is on here.
  const violations = await page.evaluate<
    string[]
  >(`axe.run(document, { resultTypes: ['violations'], rules: { 'target-size': { enabled: true } } }).then((result) =>
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

/** Where the browser tests write a screenshot of every page at both widths (README: Web application). */
export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'web-screenshots');
export const WIDTHS = [390, 1280] as const;

/**
 * The page at a phone's width and a desktop's: axe-core's serious and critical violations and whether anything is
 * wider than the viewport (`document.documentElement.scrollWidth <= innerWidth`) at each, and a full-page screenshot
 * of each into SCREENSHOT_DIR as `<name>-<width>.png`. The page is left at 390 px.
 */
export async function auditBothWidths(page: Page, name: string): Promise<Record<string, { violations: string[]; overflows: boolean }>> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const results: Record<string, { violations: string[]; overflows: boolean }> = {};
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    // Let resize observers (the chart) and layout settle at the new width.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    results[width] = await audit(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true });
  }
  return results;
}

export const CLEAN_AT_BOTH_WIDTHS = { 390: { violations: [], overflows: false }, 1280: { violations: [], overflows: false } };
