import { createServer } from 'node:net';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { count, type ReportTable, verdict } from './markdown.js';

/** A page to audit, with the session cookie when it is a signed-in page. */
export interface AuditedPage {
  label: string;
  url: string;
  cookie?: string;
}

const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const TARGETS = { performance: 95, accessibility: 100, 'best-practices': 100 };
const CLS_TARGET = 0.1;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

/**
 * Lighthouse (the npm package) on each page in Debian's Chromium, once with its mobile defaults (a mid-range phone,
 * simulated slow 4G and 4× CPU slowdown) and once with its desktop preset: performance, accessibility and best
 * practices scores, and the layout shift.
 */
export async function lighthouseTable(executablePath: string, flags: string[], pages: AuditedPage[]): Promise<ReportTable> {
  const port = await freePort();
  const browser = await chromium.launch({ executablePath, args: [...flags, `--remote-debugging-port=${port}`] });
  const rows: string[][] = [];
  try {
    for (const formFactor of ['mobile', 'desktop'] as const) {
      for (const page of pages) {
        const result = await lighthouse(
          page.url,
          {
            port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: [...CATEGORIES],
            extraHeaders: page.cookie ? { Cookie: page.cookie } : undefined,
          },
          formFactor === 'desktop' ? desktopConfig : undefined,
        );
        if (!result) throw new Error(`lighthouse gave no result for ${page.url}`);
        const { lhr } = result;
        const score = (category: (typeof CATEGORIES)[number]) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
        const cls = lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN;
        const lcp = lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN;
        const failing = Object.values(lhr.audits)
          .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
          .map((audit) => audit.id);
        const met = CATEGORIES.every((category) => score(category) >= TARGETS[category]) && cls < CLS_TARGET;
        rows.push([
          `${page.label} (${formFactor})`,
          String(score('performance')),
          String(score('accessibility')),
          String(score('best-practices')),
          cls.toFixed(3),
          `${count(Math.round(lcp))} ms`,
          failing.join(', ') || '—',
          verdict(met),
        ]);
      }
    }
  } finally {
    await browser.close();
  }
  return {
    title: 'Lighthouse (performance, accessibility, best practices; layout shift)',
    headers: ['page', 'performance', 'accessibility', 'best practices', 'layout shift', 'LCP', 'binary audits not passed', 'targets met'],
    rows,
    notes: [
      `Targets: performance ≥ ${TARGETS.performance}, accessibility ${TARGETS.accessibility}, best practices ${TARGETS['best-practices']}, layout shift < ${CLS_TARGET}. Mobile: Lighthouse's defaults (simulated throttling); desktop: its desktop preset. Signed-in pages get the session cookie as a header.`,
    ],
  };
}
