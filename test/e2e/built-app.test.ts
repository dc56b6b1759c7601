import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/auth/api-key.js';
import { DEFAULT_SANDBOX_TOKEN } from '../../src/config.js';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { createHttp } from '../support/http.js';
import { ROOT, startBuiltService } from '../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'basewatch-built-'));

beforeAll(() => {
  // The built app, not the sources: catches what only breaks under plain node (decorators, import cycles).
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the built service (node dist/src/main.js)', () => {
  it('prints a demo key once on a fresh database, and honours BOOTSTRAP_API_KEY', async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'demo.sqlite')}` };
    const first = await startBuiltService(env);
    const key = /\n\s+(sk_[0-9A-Za-z]{43})\n/.exec(first.output())?.[1];
    expect(key, first.output()).toBeDefined();
    expect(first.output()).toContain(`curl -H "Authorization: Bearer ${key}" ${first.url}/airtable/bases`);
    const bases = await createHttp(first.url, key)('GET', '/airtable/bases');
    expect(bases.body.bases.map((b: { name: string }) => b.name)).toEqual(
      expect.arrayContaining(Object.values(DEMO_BASES)),
    );
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const bootstrapKey = generateApiKey();
    const second = await startBuiltService({ ...env, BOOTSTRAP_API_KEY: bootstrapKey });
    expect(second.output()).not.toMatch(/sk_[0-9A-Za-z]{43}/);
    expect((await createHttp(second.url, bootstrapKey)('GET', '/usage/bases')).status).toBe(200);
    expect((await createHttp(second.url, key)('GET', '/usage/bases')).status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 60_000);

  it('on SIGTERM finishes the running count and its request, then exits 0 with the snapshot stored', async () => {
    const apiKey = generateApiKey();
    const env = { DATABASE_URL: `sqlite:${join(dir, 'shutdown.sqlite')}`, BOOTSTRAP_API_KEY: apiKey };
    const service = await startBuiltService(env);
    const http = createHttp(service.url, apiKey);
    const base = await trackBase(http, DEMO_BASES.catalog);
    const faults = await fetch(`${service.url}/sandbox/airtable/_control/faults`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${DEFAULT_SANDBOX_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: 400 }),
    });
    expect(faults.status).toBe(200);

    const run = http('POST', `/usage/bases/${base.id}/run`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    service.child.kill('SIGTERM');
    const result = await run;
    expect(result.status).toBe(200);
    expect(result.body.status).toBe('success');
    expect(await service.exited).toBe(0);
    await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();

    const again = await startBuiltService(env);
    const latest = await createHttp(again.url, apiKey)('GET', `/usage/bases/${base.id}/snapshots/latest`);
    expect(latest.body.day.totals.recordCount).toBe(result.body.totalRecords);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 60_000);
});
