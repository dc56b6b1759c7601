import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_CACHE_TTL_MS } from '../../src/services/credentials/caller-cache.js';
import { runCli } from '../support/cli-process.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

// A revocation in the service's own process takes effect at once: auth-and-errors.test.ts uses a key, revokes it and
// gets 401 on the next request. Another process cannot reach this process's memory, hence the time to live.
describe('revoking a key that was just used', () => {
  it('refuses it within the documented few seconds when the CLI revokes it from another process', async () => {
    const { http, accountId } = await app.newAccount('cli');
    const env = { DATABASE_URL: `sqlite:${join(app.dir, 'test.sqlite')}` };
    const listed = await runCli(['key', 'list', '--account', accountId, '--json'], env);
    const [key] = JSON.parse(listed.stdout).keys;
    // Used right before the revocation, and all along after it, so the service holds it for as long as it would.
    expect((await http('GET', '/usage/bases')).status).toBe(200);
    const revoked = await runCli(['key', 'revoke', '--key-id', key.id, '--json'], env);
    expect(revoked.code).toBe(0);
    const bound = Date.now() + API_KEY_CACHE_TTL_MS + 500;
    while (Date.now() < bound) {
      await http('GET', '/usage/bases');
      await sleep(250);
    }
    const after = await http('GET', '/usage/bases');
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('unauthorized');
  }, 60_000);
});
