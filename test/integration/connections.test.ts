import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowser, PASSWORD, uniqueEmail } from '../auth/browser.js';
import { runCli } from '../support/cli-process.js';
import { sandboxControl } from '../support/sandbox-control.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import type { JsonBody } from '../support/json-body.js';

let app: TestApp;
let logs = '';
const sentTokens: string[] = [];

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs += chunk.toString();
      done();
    },
  });
  app = await startTestApp({ LOG_LEVEL: 'debug', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:65000' }, logStream);
});
afterAll(() => app.close());

const control = <T = JsonBody>(method: string, path: string, body?: unknown) => sandboxControl(app.url)<T>(method, path, body);

/** A new upstream user of the sandbox with one base of its own, and that user's personal access token. */
async function upstreamUser(name: string) {
  const user = await control<{ id: string; email: string; token: string }>('POST', 'users', { email: `${name}@example.com` });
  const base = await control<{ id: string; name: string }>('POST', `users/${user.id}/bases`, { name: `${name}'s base` });
  sentTokens.push(user.token);
  return { ...user, base };
}

describe('a personal access token', () => {
  it('is checked with whoami, stored, shown without the token, and removed', async () => {
    const { http } = await app.newAccount('pat');
    expect((await http('GET', '/connection')).body).toEqual({ connection: null });
    const ada = await upstreamUser('ada');

    const put = await http('PUT', '/connection', { body: { token: ada.token } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      connection: {
        kind: 'token',
        upstreamUserId: ada.id,
        email: 'ada@example.com',
        scopes: null,
        status: 'active',
        connectedAt: expect.stringMatching(/Z$/),
        lastError: null,
      },
    });
    expect((await http('GET', '/connection')).body).toEqual(put.body);
    expect((await http('DELETE', '/connection')).status).toBe(204);
    expect((await http('GET', '/connection')).body).toEqual({ connection: null });
  });

  it('that the upstream refuses is a 400 and stores nothing', async () => {
    const { http } = await app.newAccount('bad-pat');
    const res = await http('PUT', '/connection', {
      body: { token: 'patAAAAAAAAAAAAAA.0000000000000000000000000000000000000000000000000000000000000000' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_request', message: 'The upstream refused this token (it is unknown, expired or revoked)' });
    expect((await http('GET', '/connection')).body).toEqual({ connection: null });
  });
});

describe('a token that cannot be a bearer token', () => {
  // Each would fail in fetch before reaching the upstream; refused as input instead, with nothing asked upstream.
  const malformed = ['pat✓', 'pat\u0000x', 'pat\nInjected: yes', 'pat x', 'patÿ', '=pat', 'pat'.padEnd(513, 'A')];

  it('is a 400 invalid_request naming the field over REST, and stores nothing', async () => {
    const { http } = await app.newAccount('malformed-pat');
    for (const token of malformed) {
      const res = await http('PUT', '/connection', { body: { token } });
      expect(res.status, JSON.stringify(token)).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.message).toContain('token');
      expect(res.body.message).not.toContain('upstream');
    }
    expect((await http('GET', '/connection')).body).toEqual({ connection: null });
  });

  it('is an invalid_request over GraphQL too', async () => {
    const { apiKey } = await app.newAccount('malformed-pat-graphql');
    for (const token of malformed) {
      const res = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'mutation($token: String!) { connectAirtableToken(input: { token: $token }) { connection { kind } } }',
          variables: { token },
        }),
      });
      const body = (await res.json()) as { errors?: Array<{ message: string; extensions: { code: string } }> };
      expect(body.errors?.[0]?.extensions.code, JSON.stringify(token)).toBe('invalid_request');
      expect(body.errors?.[0]?.message).toMatch(/^input\.token: (must be a bearer token|Too big)/);
    }
  });
});

describe('tenancy: what an account sees upstream is what its connection sees', () => {
  it('lists only its own user’s bases and cannot reach another user’s base', async () => {
    const ada = await upstreamUser('ada2');
    const bob = await upstreamUser('bob2');
    const first = await app.newAccount('ada-account');
    const second = await app.newAccount('bob-account');
    await first.http('PUT', '/connection', { body: { token: ada.token } });
    await second.http('PUT', '/connection', { body: { token: bob.token } });

    expect((await first.http('GET', '/airtable/bases')).body.bases.map((b: { id: string }) => b.id)).toEqual([ada.base.id]);
    expect((await second.http('GET', '/airtable/bases')).body.bases.map((b: { id: string }) => b.id)).toEqual([bob.base.id]);
    expect((await first.http('GET', `/airtable/bases/${bob.base.id}/tables`)).status).toBe(404);
    // Tracking, configs and webhooks on the other user's base: 404, as for a base that does not exist.
    expect((await first.http('POST', '/usage/bases', { body: { baseId: bob.base.id } })).status).toBe(404);
    expect((await first.http('POST', '/monitoring-config', { body: { baseId: bob.base.id, monitoringBaseId: ada.base.id } })).status).toBe(
      404,
    );
    const webhook = { baseId: bob.base.id, event: 'table_create', webhookUrl: 'http://127.0.0.1:65000/hook' };
    expect((await first.http('POST', '/webhooks', { body: webhook })).status).toBe(404);

    const tracked = await first.http('POST', '/usage/bases', { body: { baseId: ada.base.id } });
    expect(tracked.status).toBe(201);
    const run = await first.http('POST', `/usage/bases/${tracked.body.base.id}/run`);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ status: 'success', tablesProcessed: 1 });
  });

  it('a base shared with both users is visible to both accounts', async () => {
    const ada = await upstreamUser('ada3');
    const bob = await upstreamUser('bob3');
    await control('POST', `bases/${ada.base.id}/share`, { userId: bob.id });
    const second = await app.newAccount('bob3-account');
    await second.http('PUT', '/connection', { body: { token: bob.token } });
    const ids = (await second.http('GET', '/airtable/bases')).body.bases.map((b: { id: string }) => b.id);
    expect(ids.sort()).toEqual([ada.base.id, bob.base.id].sort());
  });

  it('an account without a connection uses the shared token (single-team mode) and sees the demo bases', async () => {
    const bases = (await app.http('GET', '/airtable/bases')).body.bases.map((b: { name: string }) => b.name);
    expect(bases).toContain('Acme Product Catalog');
  });
});

/** The `basewatch_oauth` cookie a start answer sets (name=value), as the calling browser keeps it. */
function oauthCookieOf(start: { headers: Headers }): string {
  const cookie = start.headers.getSetCookie().find((c) => c.startsWith('basewatch_oauth='));
  expect(cookie).toMatch(/; Path=\/oauth\/airtable\/callback; .*HttpOnly; SameSite=Lax$/);
  return cookie!.split(';')[0]!;
}

/** The upstream's redirect back, followed by a browser holding `cookie` (a Cookie header), or by none. */
const followCallback = (callback: URL, cookie?: string, headers: Record<string, string> = {}) =>
  app.http('GET', `${callback.pathname}${callback.search}`, { key: null, headers: cookie ? { ...headers, cookie } : headers });

async function startOAuth(http: TestApp['http']) {
  const start = await http('POST', '/connection/oauth/start');
  expect(start.status).toBe(201);
  return { authorizeUrl: new URL(start.body.authorizeUrl), cookie: oauthCookieOf(start) };
}

describe('OAuth 2.0 with PKCE', () => {
  async function authorizeWithConsent(http: TestApp['http'], userId: string, baseIds: string[]) {
    const { authorizeUrl, cookie } = await startOAuth(http);
    await control('PUT', 'oauth/consent', { userId, baseIds });
    const redirect = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    return { authorizeUrl, callback: new URL(redirect.headers.get('location')!), cookie };
  }

  it('connects through the authorize page and the callback; the state is single use', async () => {
    const ada = await upstreamUser('ada4');
    const { http } = await app.newAccount('oauth');
    const { authorizeUrl, callback, cookie } = await authorizeWithConsent(http, ada.id, [ada.base.id]);
    expect(authorizeUrl.pathname).toBe('/sandbox/airtable/oauth2/v1/authorize');
    expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
      client_id: 'basewatch-sandbox',
      redirect_uri: `${app.url}/oauth/airtable/callback`,
      response_type: 'code',
      code_challenge_method: 'S256',
      scope: 'schema.bases:read data.records:read data.records:write schema.bases:write webhook:manage user.email:read',
    });
    expect(authorizeUrl.searchParams.get('state')!.length).toBeGreaterThanOrEqual(16);
    expect(callback.pathname).toBe('/oauth/airtable/callback');

    const done = await followCallback(callback, cookie);
    expect(done.status).toBe(200);
    // The binding is spent with the state.
    expect(done.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^basewatch_oauth=; Path=\/oauth\/airtable\/callback; Expires=Thu, 01 Jan 1970/),
    ]);
    expect(done.body.connection).toMatchObject({ kind: 'oauth', upstreamUserId: ada.id, status: 'active', lastError: null });
    expect(done.body.connection.scopes).toContain('data.records:read');
    expect((await http('GET', '/connection')).body).toEqual(done.body);
    expect((await http('GET', '/airtable/bases')).body.bases.map((b: { id: string }) => b.id)).toEqual([ada.base.id]);

    const replay = await followCallback(callback, cookie);
    expect(replay.status).toBe(400);
    expect(replay.body.message).toMatch(/Unknown, used or expired OAuth state/);
  });

  it('refuses a state older than 10 minutes', async () => {
    const ada = await upstreamUser('ada11');
    const { http } = await app.newAccount('oauth-late');
    const { callback, cookie } = await authorizeWithConsent(http, ada.id, [ada.base.id]);
    const state = callback.searchParams.get('state')!;
    await app.running.dataSource.query('UPDATE oauth_state SET expires_at = ? WHERE state = ?', [
      new Date(Date.now() - 1).toISOString(),
      state,
    ]);
    const late = await followCallback(callback, cookie);
    expect(late.status).toBe(400);
    expect(late.body.message).toMatch(/Unknown, used or expired OAuth state/);
    expect((await http('GET', '/connection')).body).toEqual({ connection: null });
  });

  it('refuses a forged state, an upstream error and a replayed code, storing nothing', async () => {
    const ada = await upstreamUser('ada5');
    const { http } = await app.newAccount('oauth-bad');
    const forged = await app.http('GET', `/oauth/airtable/callback?code=abc&state=${'x'.repeat(43)}`, { key: null });
    expect(forged.status).toBe(400);

    const denied = await startOAuth(http);
    const deniedState = denied.authorizeUrl.searchParams.get('state');
    const error = await followCallback(
      new URL(`${app.url}/oauth/airtable/callback?error=access_denied&state=${deniedState}`),
      denied.cookie,
    );
    expect(error.status).toBe(400);
    expect(error.body.message).toMatch(/access_denied/);

    const { callback, cookie } = await authorizeWithConsent(http, ada.id, [ada.base.id]);
    const code = callback.searchParams.get('code')!;
    // A second authorization's state with the first one's code: the code was issued for another verifier.
    const again = await startOAuth(http);
    const otherState = again.authorizeUrl.searchParams.get('state');
    const mismatch = await followCallback(new URL(`${app.url}/oauth/airtable/callback?code=${code}&state=${otherState}`), again.cookie);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toMatch(/refused the authorization code \(invalid_grant\)/);
    // The code was spent by the failed exchange: single use even on failure.
    const late = await followCallback(callback, cookie);
    expect(late.status).toBe(400);
    expect((await http('GET', '/connection')).body).toEqual({ connection: null });
  });

  it('refuses a callback from another browser than the one that started: the attacker’s URL consented by a victim stores nothing', async () => {
    const victimUpstream = await upstreamUser('victim');
    const attacker = await app.newAccount('oauth-attacker');
    // The attacker starts (and keeps the cookie); the victim, signed in here to an account of their own and with a
    // flow of their own started, opens the attacker's authorization URL and consents.
    const { authorizeUrl } = await startOAuth(attacker.http);
    const victim = createBrowser(app.url);
    expect((await victim.request('POST', '/auth/sign-up', { body: { email: uniqueEmail('victim'), password: PASSWORD } })).status).toBe(
      201,
    );
    const victimsOwnStart = await victim.request('POST', '/connection/oauth/start', { csrf: true });
    expect(victimsOwnStart.status).toBe(201);
    await control('PUT', 'oauth/consent', { userId: victimUpstream.id, baseIds: [victimUpstream.base.id] });
    const callback = new URL((await fetch(authorizeUrl, { redirect: 'manual' })).headers.get('location')!);
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));

    const session = `basewatch_session=${victim.cookie}`;
    for (const cookie of [session, `${session}; ${oauthCookieOf(victimsOwnStart)}`, undefined]) {
      const refused = await followCallback(callback, cookie);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        code: 'invalid_request',
        message: expect.stringMatching(/^This callback does not come from the browser that started the connection/),
      });
    }
    const asBrowser = await fetch(`${callback}`, { headers: { accept: 'text/html', cookie: session }, redirect: 'manual' });
    expect(asBrowser.status).toBe(303);
    expect(asBrowser.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^basewatch_oauth_outcome=wrong_browser;/));
    expect((await attacker.http('GET', '/connection')).body).toEqual({ connection: null });
    expect((await victim.request('GET', '/connection')).body).toEqual({ connection: null });
  });

  it('sends a browser back to /settings with the outcome in a one-time cookie, never in the URL', async () => {
    const ada = await upstreamUser('ada12');
    const { http } = await app.newAccount('oauth-return');
    const { callback, cookie } = await authorizeWithConsent(http, ada.id, [ada.base.id]);
    const asBrowser = (withCookie?: string) =>
      fetch(`${callback}`, { headers: { accept: 'text/html', ...(withCookie ? { cookie: withCookie } : {}) }, redirect: 'manual' });
    const outcomeOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('basewatch_oauth_outcome='));

    const back = await asBrowser(cookie);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/settings');
    expect(outcomeOf(back)).toMatch(/^basewatch_oauth_outcome=connected; Max-Age=60; Path=\/settings; Expires=[^;]+; SameSite=Lax$/);
    expect((await http('GET', '/connection')).body.connection).toMatchObject({ kind: 'oauth', upstreamUserId: ada.id });
    const replayed = await asBrowser(cookie);
    expect([replayed.headers.get('location'), outcomeOf(replayed)]).toEqual([
      '/settings',
      expect.stringMatching(/^basewatch_oauth_outcome=expired;/),
    ]);
  });

  it('refreshes a rotated pair exactly once for 20 concurrent callers in two service instances', async () => {
    const ada = await upstreamUser('ada6');
    const account = await app.newAccount('oauth-refresh');
    const { callback, cookie } = await authorizeWithConsent(account.http, ada.id, [ada.base.id]);
    expect((await followCallback(callback, cookie)).status).toBe(200);
    const tokens = app.running.services.accessTokens;
    const first = await tokens.tokenFor(account.accountId);
    await control('POST', 'tokens/expire', { userId: ada.id });

    // A second instance of the service on the same database stands in for a second process.
    const { startServer } = await import('../../src/server.js');
    const { loadConfig } = await import('../../src/config.js');
    const { createLogger } = await import('../../src/logger.js');
    const second = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: `sqlite:${app.dir}/test.sqlite`,
        SCHEDULER_RUN_JOBS: 'false',
        AIRTABLE_TOKEN: 'unused',
        AIRTABLE_API_URL: `${app.url}/sandbox/airtable`,
        AIRTABLE_OAUTH_CLIENT_ID: 'basewatch-sandbox',
        AIRTABLE_OAUTH_URL: `${app.url}/sandbox/airtable`,
        LOG_LEVEL: 'silent',
      }),
      createLogger('silent'),
    );
    try {
      const callers = Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? second.services : app.running.services).accessTokens.afterUnauthorized(account.accountId, first.version),
      );
      const renewed = await Promise.all(callers);
      expect(new Set(renewed.map((t) => t.version))).toEqual(new Set([first.version + 1]));
      expect(new Set(renewed.map((t) => t.token)).size).toBe(1);
      expect(renewed[0]!.token).not.toBe(first.token);
      sentTokens.push(first.token, renewed[0]!.token);
      // The renewed token works upstream, through the account's own client.
      expect((await account.http('GET', '/airtable/bases')).body.bases.map((b: { id: string }) => b.id)).toEqual([ada.base.id]);
    } finally {
      await second.close();
    }
  });

  it('renews an expired access token on the 401 of a real call, and marks a revoked grant needs_reauth', async () => {
    const ada = await upstreamUser('ada7');
    const account = await app.newAccount('oauth-revoke');
    const { callback, cookie } = await authorizeWithConsent(account.http, ada.id, [ada.base.id]);
    expect((await followCallback(callback, cookie)).status).toBe(200);
    const before = await app.running.services.accessTokens.tokenFor(account.accountId);
    await control('POST', 'tokens/expire', { userId: ada.id });
    expect((await account.http('GET', '/airtable/bases')).status).toBe(200);
    expect((await app.running.services.accessTokens.tokenFor(account.accountId)).version).toBe(before.version + 1);

    await control('POST', 'tokens/revoke', { userId: ada.id });
    const refused = await account.http('GET', '/airtable/bases');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: 'upstream_not_connected', message: expect.stringMatching(/needs re-authorisation/) });
    const { connection } = (await account.http('GET', '/connection')).body;
    expect(connection).toMatchObject({ status: 'needs_reauth', lastError: expect.stringMatching(/refused the refresh \(invalid_grant\)/) });
  });
});

describe('an account whose connection needs re-authorisation', () => {
  it('pauses its scheduled count with the reason on the schedule, and counts again once it reconnects', async () => {
    const ada = await upstreamUser('ada10');
    const account = await app.newAccount('paused');
    await account.http('PUT', '/connection', { body: { token: ada.token } });
    const base = (await account.http('POST', '/usage/bases', { body: { baseId: ada.base.id } })).body.base;
    await control('POST', 'tokens/revoke', { token: ada.token });

    const paused = await app.running.services.usageSchedule.runScheduled(base.id);
    expect(paused.outcome).toBe('paused');
    expect(paused.nextRunAt).not.toBeNull();
    const schedule = (await account.http('GET', `/usage/bases/${base.id}/schedule`)).body;
    expect(schedule.lastRun).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^Paused: The upstream connection needs re-authorisation/),
    });
    expect(await app.running.services.upstreamAccess.canReach(account.accountId)).toBe(false);

    const token = (await control<{ token: string }>('POST', `users/${ada.id}/tokens`, {})).token;
    sentTokens.push(token);
    expect((await account.http('PUT', '/connection', { body: { token } })).body.connection.status).toBe('active');
    expect((await app.running.services.usageSchedule.runScheduled(base.id)).outcome).toBe('counted');
    expect((await account.http('GET', `/usage/bases/${base.id}/schedule`)).body.lastRun.status).toBe('ok');
  });
});

describe('without the shared token (AIRTABLE_SHARED_TOKEN=false)', () => {
  it('answers 409 upstream_not_connected to work that needs a connection, and works once one is made', async () => {
    const solo = await startTestApp({ AIRTABLE_SHARED_TOKEN: 'false' });
    try {
      const res = await solo.http('GET', '/airtable/bases');
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: 'upstream_not_connected', message: expect.stringMatching(/no upstream connection/) });
      expect((await solo.http('POST', '/usage/bases', { body: { baseId: 'appAAAAAAAAAAAAAA' } })).body.code).toBe('upstream_not_connected');
      const user = await sandboxControl(solo.url)<{ token: string }>('POST', 'users', { email: 'solo@example.com' });
      expect((await solo.http('PUT', '/connection', { body: { token: user.token } })).status).toBe(200);
      expect((await solo.http('GET', '/airtable/bases')).body).toEqual({ bases: [] });
    } finally {
      await solo.close();
    }
  });
});

describe('GraphQL', () => {
  it('shows viewer.connection and connects, starts OAuth and disconnects through mutations', async () => {
    const ada = await upstreamUser('ada8');
    const { apiKey } = await app.newAccount('graphql');
    const graphql = async (query: string, variables?: Record<string, unknown>) => {
      const res = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return {
        ...((await res.json()) as { data?: JsonBody; errors?: Array<{ message: string; extensions: { code: string } }> }),
        headers: res.headers,
      };
    };
    expect((await graphql('{ viewer { connection { kind } } }')).data).toEqual({ viewer: { connection: null } });
    const connected = await graphql(
      'mutation($token: String!) { connectAirtableToken(input: { token: $token, clientMutationId: "c1" }) { clientMutationId connection { kind upstreamUserId email scopes status lastError } viewer { connection { status } } } }',
      { token: ada.token },
    );
    expect(connected.data.connectAirtableToken).toEqual({
      clientMutationId: 'c1',
      connection: { kind: 'TOKEN', upstreamUserId: ada.id, email: 'ada8@example.com', scopes: null, status: 'ACTIVE', lastError: null },
      viewer: { connection: { status: 'ACTIVE' } },
    });
    const refused = await graphql('mutation { connectAirtableToken(input: { token: "nope" }) { connection { kind } } }');
    expect(refused.errors?.[0]?.extensions.code).toBe('invalid_request');
    const started = await graphql('mutation { startAirtableOAuth(input: {}) { authorizeUrl } }');
    expect(started.data.startAirtableOAuth.authorizeUrl).toMatch(
      /\/sandbox\/airtable\/oauth2\/v1\/authorize\?client_id=basewatch-sandbox&/,
    );
    // The answer binds the flow to the caller, whose cookie's hash is the state.
    const binding = oauthCookieOf({ headers: started.headers }).slice('basewatch_oauth='.length);
    expect(createHash('sha256').update(binding).digest('base64url')).toBe(
      new URL(started.data.startAirtableOAuth.authorizeUrl).searchParams.get('state'),
    );
    const gone = await graphql('mutation { disconnectAirtable(input: {}) { viewer { connection { kind } } } }');
    expect(gone.data).toEqual({ disconnectAirtable: { viewer: { connection: null } } });
  });
});

describe('CLI', () => {
  it('sets, shows and removes an account’s connection (connection set-token|show|remove)', async () => {
    const ada = await upstreamUser('ada9');
    const { accountId } = await app.newAccount('cli');
    const env = { DATABASE_URL: `sqlite:${app.dir}/test.sqlite`, PORT: String(app.running.port) };
    const set = await runCli(['connection', 'set-token', '--account', accountId, '--token', ada.token, '--json'], env);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout).connection).toMatchObject({ kind: 'token', upstreamUserId: ada.id, status: 'active' });
    expect(set.stdout).not.toContain(ada.token);
    const shown = await runCli(['connection', 'show', '--account', accountId, '--json'], env);
    expect(JSON.parse(shown.stdout)).toEqual(JSON.parse(set.stdout));
    expect((await app.http('GET', '/connection')).status).toBe(200);
    expect((await runCli(['connection', 'remove', '--account', accountId, '--json'], env)).code).toBe(0);
    expect(JSON.parse((await runCli(['connection', 'show', '--account', accountId, '--json'], env)).stdout)).toEqual({ connection: null });
    const malformed = await runCli(['connection', 'set-token', '--account', accountId, '--token', 'pat✓', '--json'], env);
    expect(malformed.code).not.toBe(0);
    expect(JSON.parse(malformed.stdout).error).toContain('token: must be a bearer token');
  }, 60_000);
});

describe('secrets', () => {
  it('never puts a token in a log line', () => {
    expect(sentTokens.length).toBeGreaterThan(3);
    for (const token of sentTokens) expect(logs).not.toContain(token);
  });
});
