import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startBuiltService } from '../support/processes.js';

// The two steps of `npm run build`: tsc (into a folder of its own, so as not to race other test files' builds of
// dist/) and the web build (into dist/web, which the built server finds from any folder under the package).
const outDir = join(ROOT, 'node_modules/.cache/basewatch-web-build');
const dataDir = mkdtempSync(join(tmpdir(), 'basewatch-web-built-'));

beforeAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', outDir], {
    cwd: ROOT,
  });
  execFileSync(process.execPath, [join(ROOT, 'web/build.mjs')], { cwd: ROOT });
}, 180_000);
afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the built service serves the web application', () => {
  it('answers / with the page and its bundle', async () => {
    const { child, url, exited } = await startBuiltService(
      { DATABASE_URL: `sqlite:${join(dataDir, 'db.sqlite')}` },
      join(outDir, 'src/main.js'),
    );
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
