import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '../support/eventually.js';
import { startWithBanner } from '../support/processes.js';
import { startTestApp } from '../support/test-app.js';
import { tempDir } from '../support/temp-dir.js';

const TOKEN = 'standalone-sandbox-token';

/**
 * `npm run sandbox`'s script on an ephemeral port, in one process: node with tsx's loader. The `tsx` command runs it in
 * a child and relays SIGTERM, and a child that has not confirmed the signal within 30 ms (a busy machine) is killed
 * and the command exits 143, which would hide whether the sandbox's own stop works.
 */
async function startStandalone(stateFile: string, port = 0) {
  const sandbox = await startWithBanner(process.execPath, ['--import', 'tsx', 'src/sandbox/standalone.ts'], {
    PORT: String(port),
    SANDBOX_TOKEN: TOKEN,
    SANDBOX_STATE_FILE: stateFile,
  });
  const stop = async () => {
    sandbox.child.kill('SIGTERM');
    return sandbox.exited;
  };
  return { url: sandbox.url, stop, banner: sandbox.output };
}

const call = async (url: string, token: string, init: RequestInit = {}) => {
  const res = await fetch(url, { ...init, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('npm run sandbox (the emulator alone)', () => {
  it('serves the platform at its root with the demo seed, serves a service pointed at it, and keeps its state across restarts', async () => {
    const stateFile = join(tempDir('basewatch-standalone-'), 'sandbox.json');
    const first = await startStandalone(stateFile);
    let user: { id: string; email: string; token: string };
    try {
      expect(first.banner()).toContain(`AIRTABLE_API_URL=${first.url}`);
      expect(first.banner()).not.toContain(TOKEN);
      const bases = await call(`${first.url}/v0/meta/bases`, TOKEN);
      expect(bases.status).toBe(200);
      expect((bases.body.bases as Array<{ name: string }>).map((b) => b.name)).toContain('Acme Product Catalog');
      expect((await call(`${first.url}/v0/meta/bases`, 'wrong-token-xyz')).status).toBe(401);

      const created = await call(`${first.url}/_control/users`, TOKEN, {
        method: 'POST',
        body: JSON.stringify({ email: 'solo@example.com' }),
      });
      expect(created.status).toBe(201);
      user = created.body as typeof user;

      // A service in real-upstream mode, as a replica would be configured.
      const app = await startTestApp({ AIRTABLE_API_URL: first.url, AIRTABLE_TOKEN: TOKEN });
      try {
        const listed = await app.http('GET', '/airtable/bases');
        expect(listed.status).toBe(200);
        expect((listed.body.bases as Array<{ name: string }>).map((b) => b.name)).toContain('Acme Product Catalog');
      } finally {
        await app.close();
      }
    } finally {
      expect(await first.stop()).toBe(0);
    }

    expect(existsSync(stateFile)).toBe(true);
    expect(readFileSync(stateFile, 'utf8')).toContain('solo@example.com');
    const second = await startStandalone(stateFile);
    try {
      const whoami = await call(`${second.url}/v0/meta/whoami`, user!.token);
      expect(whoami).toMatchObject({ status: 200, body: { id: user!.id } });
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 60_000);
});

describe('a standalone sandbox restarted while a service counts', () => {
  it('answers the old offset LIST_RECORDS_ITERATOR_NOT_AVAILABLE, and the count restarts the listing and is right', async () => {
    const stateFile = join(tempDir('basewatch-standalone-'), 'sandbox.json');
    let sandbox = await startStandalone(stateFile);
    const port = Number(new URL(sandbox.url).port);
    // Retries that outlast the sandbox's restart.
    const app = await startTestApp({
      AIRTABLE_API_URL: sandbox.url,
      AIRTABLE_TOKEN: TOKEN,
      UPSTREAM_RETRY_BASE_DELAY_MS: '1000',
      UPSTREAM_MAX_RETRIES: '8',
    });
    try {
      const large = await call(`${sandbox.url}/_control/bases/large`, TOKEN, {
        method: 'POST',
        body: JSON.stringify({ name: 'Restart mid-count', tables: 1, recordsPerTable: 350 }),
      });
      expect(large.status).toBe(201);
      const baseId = large.body.id as string;
      const tracked = await app.http('POST', '/usage/bases', { body: { baseId } });
      expect(tracked.status).toBe(201);

      const requestsFor = async () => {
        const stats = await call(`${sandbox.url}/_control/stats`, TOKEN);
        return (stats.body.byBase as Record<string, { requests: number }>)[baseId]?.requests ?? 0;
      };
      const before = await requestsFor();
      // Every request is held a while (fault settings are not kept across the restart), so the count is caught
      // with page 2 asked for: the schema, page 1, then page 2 with page 1's offset.
      await call(`${sandbox.url}/_control/faults`, TOKEN, { method: 'PUT', body: JSON.stringify({ latencyMs: 3_000 }) });
      const run = app.http('POST', `/usage/bases/${tracked.body.base.id}/run`);
      await until(requestsFor, (requests) => requests >= before + 3);
      expect(await sandbox.stop()).toBe(0);
      sandbox = await startStandalone(stateFile, port);

      const result = await run;
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(result.body).toMatchObject({ status: 'success', tablesProcessed: 1, totalRecords: 350 });
      // The retried page-2 request (refused: its iterator is gone), then the listing again from page 1.
      expect(await requestsFor()).toBeGreaterThanOrEqual(5);
    } finally {
      await app.close();
      expect(await sandbox.stop()).toBe(0);
    }
  }, 90_000);
});
