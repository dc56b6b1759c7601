import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtServiceMain } from '../support/built-service.js';
import { startBuiltService } from '../support/processes.js';

// The two steps of `npm run build`: tsc and the web build (into dist/web, which the built server finds from any
// folder under the package).
let main: string;
const dataDir = mkdtempSync(join(tmpdir(), 'basewatch-web-built-'));

beforeAll(async () => {
  main = await builtServiceMain();
}, 180_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the built service serves the web application', () => {
  it('answers / with the page and its bundle', async () => {
    const { child, url, exited } = await startBuiltService({ DATABASE_URL: `sqlite:${join(dataDir, 'db.sqlite')}` }, main);
    const page = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const script = /src="(\/assets\/main-[A-Z0-9]+\.js)"/.exec(await page.text())?.[1];
    expect(script).toBeDefined();
    const bundle = await fetch(`${url}${script}`);
    expect(bundle.status).toBe(200);
    expect(await bundle.text()).toContain('Sign in to basewatch');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
