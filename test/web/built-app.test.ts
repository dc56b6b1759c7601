import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes.js';

// The two steps of `npm run build`: tsc (into a folder of its own, so as not to race other test files' builds of
// dist/) and the web build (into dist/web, which the built server finds from any folder under the package).
const outDir = join(ROOT, 'node_modules/.cache/basewatch-web-build');
const dataDir = mkdtempSync(join(tmpdir(), 'basewatch-web-built-'));

beforeAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', outDir], { cwd: ROOT });
  execFileSync(process.execPath, [join(ROOT, 'web/build.mjs')], { cwd: ROOT });
}, 180_000);
afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the built service serves the web application', () => {
  it('answers / with the page and its bundle', async () => {
    const child = spawn(process.execPath, [join(outDir, 'src/main.js')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: `sqlite:${join(dataDir, 'db.sqlite')}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        output += chunk;
        const match = /running at (http:\/\/[\d.]+:\d+)/.exec(output);
        if (match) resolve(match[1]);
      });
      void exited.then((code) => reject(new Error(`exited with ${code}`)));
    });
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
