import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, startWithBanner } from '../support/processes.js';
import { startTestApp } from '../support/test-app.js';

const TOKEN = 'standalone-sandbox-token';

/** `npm run sandbox`'s script, started as npm starts it, on an ephemeral port. */
async function startStandalone(stateFile: string) {
  const sandbox = await startWithBanner(join(ROOT, 'node_modules/.bin/tsx'), ['src/sandbox/standalone.ts'], {
    PORT: '0',
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
    const stateFile = join(mkdtempSync(join(tmpdir(), 'basewatch-standalone-')), 'sandbox.json');
    const first = await startStandalone(stateFile);
    let user: { id: string; email: string; token: string };
    try {
      expect(first.banner()).toContain(`AIRTABLE_API_URL=${first.url}`);
      expect(first.banner()).not.toContain(TOKEN);
      const bases = await call(`${first.url}/v0/meta/bases`, TOKEN);
      expect(bases.status).toBe(200);
      expect((bases.body.bases as Array<{ name: string }>).map((b) => b.name)).toContain('Acme Product Catalog');
      expect((await call(`${first.url}/v0/meta/bases`, 'wrong-token-xyz')).status).toBe(401);

      const created = await call(`${first.url}/_control/users`, TOKEN, { method: 'POST', body: JSON.stringify({ email: 'solo@example.com' }) });
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
