import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserSession } from '../../src/entities/index.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createBrowser, PASSWORD, seenResponses, uniqueEmail, type Browser } from './browser.js';

/**
 * Sign-ins timed of each kind (an unknown e-mail, a wrong password): at least the first, at most the second. The wrong
 * passwords go to three users in turn, 4 each, below the 5 failed sign-ins an e-mail may have in 15 minutes; the 24 of
 * both kinds stay below the address's 30.
 */
const SIGN_IN_TURNS = { least: 4, most: 12 };
const WRONG_PASSWORD_USERS = 3;

const logLines: string[] = [];
const secrets: string[] = [];
let app: TestApp;
beforeAll(async () => {
  const logStream = new Writable({
    write: (chunk, _enc, done) => {
      logLines.push(String(chunk));
      done();
    },
  });
  app = await startTestApp({ LOG_LEVEL: 'debug' }, logStream);
});
afterAll(() => app.close());

async function signUp(email = uniqueEmail(), password = PASSWORD): Promise<Browser> {
  const browser = createBrowser(app.url);
  const res = await browser.request('POST', '/auth/sign-up', { body: { email, password } });
  expect(res.status).toBe(201);
  secrets.push(password, browser.cookie!);
  return browser;
}

async function signIn(email: string, password = PASSWORD): Promise<Browser> {
  const browser = createBrowser(app.url);
  const res = await browser.request('POST', '/auth/sign-in', { body: { email, password } });
  expect(res.status).toBe(200);
  secrets.push(browser.cookie!);
  return browser;
}

describe('sign-up, sign-in, session, sign-out', () => {
  it('round-trips: the cookie’s attributes, the session body, and a sign-out that ends it at once', async () => {
    const email = uniqueEmail('Ada');
    const browser = createBrowser(app.url);
    const created = await browser.request('POST', '/auth/sign-up', {
      body: { email: `  ${email.toUpperCase()} `, password: PASSWORD, accountName: 'Ada’s team' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      user: { id: expect.any(String), email: email.toLowerCase() },
      account: { id: expect.any(String), name: 'Ada’s team' },
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const cookie = browser.lastSetCookie!;
    expect(cookie).toMatch(/^basewatch_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=1209600/);
    expect(cookie).not.toMatch(/Secure/);
    secrets.push(browser.cookie!);

    const session = await browser.request('GET', '/auth/session');
    expect(session.status).toBe(200);
    expect(session.body).toEqual(created.body);

    const out = await browser.request('POST', '/auth/sign-out', { csrf: true });
    expect(out.status).toBe(204);
    expect(browser.lastSetCookie).toMatch(/^basewatch_session=;.*Expires=Thu, 01 Jan 1970/);
    expect(browser.cookie).toBeUndefined();
    expect((await browser.request('GET', '/auth/session')).status).toBe(401);

    const again = await signIn(email.toLowerCase());
    const back = await again.request('GET', '/auth/session');
    expect(back.body.user).toEqual(created.body.user);
    expect(back.body.account).toEqual(created.body.account);
    expect(back.body.csrfToken).not.toBe(created.body.csrfToken);
  });

  it('slides the 14-day expiry with use (and sends the cookie again), and refuses an expired session', async () => {
    const browser = await signUp();
    const sessions = app.running.services.dataSource.getRepository(UserSession);
    const [row] = await sessions.find({ where: { userId: (await browser.request('GET', '/auth/session')).body.user.id } });
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    await sessions.update({ id: row!.id }, { lastUsedAt: tenMinutesAgo, expiresAt: new Date(Date.now() + 60_000) });

    const used = await browser.request('GET', '/usage/bases');
    expect(used.status).toBe(200);
    expect(browser.lastSetCookie).toMatch(/; Max-Age=1209600;/);
    const slid = await sessions.findOneByOrFail({ id: row!.id });
    expect(slid.expiresAt.getTime()).toBeGreaterThan(Date.now() + 13.9 * 24 * 3_600_000);
    expect(slid.lastUsedAt.getTime()).toBeGreaterThan(tenMinutesAgo.getTime());
    // Within five minutes of the last move, a request neither writes nor sends the cookie again.
    await browser.request('GET', '/usage/bases');
    expect(browser.lastSetCookie).toBeUndefined();

    await sessions.update({ id: row!.id }, { expiresAt: new Date(Date.now() - 1) });
    expect((await browser.request('GET', '/usage/bases')).status).toBe(401);
  });

  it('refuses a signed-out cookie replayed elsewhere at once', async () => {
    const browser = await signUp();
    const stolen = browser.clone();
    expect((await stolen.request('GET', '/usage/bases')).status).toBe(200);
    expect((await browser.request('POST', '/auth/sign-out', { csrf: true })).status).toBe(204);
    const refused = await stolen.request('GET', '/usage/bases');
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('unauthorized');
  });

  it('answers an unknown e-mail and a wrong password the same, in similar time', async () => {
    const emails = Array.from({ length: WRONG_PASSWORD_USERS }, () => uniqueEmail());
    for (const email of emails) await signUp(email);
    const browser = createBrowser(app.url);
    const timed = async (body: object) => {
      const started = performance.now();
      const res = await browser.request('POST', '/auth/sign-in', { body });
      return { res, ms: performance.now() - started };
    };
    const unknown: Array<Awaited<ReturnType<typeof timed>>> = [];
    const wrong: Array<Awaited<ReturnType<typeof timed>>> = [];
    // Both verify one scrypt hash; without the decoy an unknown e-mail answers in well under a tenth of the time. Each
    // kind's fastest answer is compared: load from the tests beside this one only ever adds time, and a loaded
    // machine made medians of three differ by more than twice. Turns go on (up to `most`) while load keeps the fastest
    // answers apart: more turns only bring each kind's fastest nearer its unloaded time, which without the decoy stays
    // a tenth of the other's.
    const fastest = (list: { ms: number }[]) => Math.min(...list.map((t) => t.ms));
    const similar = () => fastest(unknown) > fastest(wrong) * 0.5 && fastest(wrong) > fastest(unknown) * 0.5;
    // In turns that alternate which kind goes first, each kind first as often as second.
    for (let i = 0; i < SIGN_IN_TURNS.most && (i < SIGN_IN_TURNS.least || !similar()); i++) {
      const tryUnknown = async () => unknown.push(await timed({ email: uniqueEmail('nobody'), password: 'wrong password 123' }));
      const tryWrong = async () => wrong.push(await timed({ email: emails[i % emails.length], password: `wrong password ${i}` }));
      for (const attempt of i % 2 === 0 ? [tryUnknown, tryWrong] : [tryWrong, tryUnknown]) await attempt();
    }
    for (const { res } of [...unknown, ...wrong]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'unauthorized', message: 'Wrong e-mail or password' });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect(fastest(unknown)).toBeGreaterThan(fastest(wrong) * 0.5);
    expect(fastest(wrong)).toBeGreaterThan(fastest(unknown) * 0.5);
  });

  it('checks the password rules and refuses a second user with the same e-mail', async () => {
    const browser = createBrowser(app.url);
    const email = uniqueEmail();
    const tooShort = await browser.request('POST', '/auth/sign-up', { body: { email, password: 'short pw1' } });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.message).toContain('at least 10 characters');
    const isEmail = await browser.request('POST', '/auth/sign-up', { body: { email, password: email.toUpperCase() } });
    expect(isEmail.status).toBe(400);
    expect(isEmail.body.message).toContain('must not be the e-mail');
    const tooLong = await browser.request('POST', '/auth/sign-up', { body: { email, password: 'x'.repeat(257) } });
    expect(tooLong.status).toBe(400);
    const unknownField = await browser.request('POST', '/auth/sign-up', { body: { email, password: PASSWORD, admin: true } });
    expect(unknownField.status).toBe(400);
    await signUp(email);
    const twice = await browser.request('POST', '/auth/sign-up', { body: { email, password: PASSWORD } });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('conflict');
  });

  it('says 401 for /auth/session with an API key or nothing', async () => {
    expect((await app.http('GET', '/auth/session')).status).toBe(401);
    expect((await app.http('GET', '/auth/session', { key: null })).status).toBe(401);
  });
});

describe('the session cookie on REST and GraphQL, and CSRF', () => {
  const createUsageBase = `mutation Track($input: CreateUsageBaseInput!) { createUsageBase(input: $input) { usageBase { baseId } } }`;

  it('a cookie write without X-CSRF-Token is 403 csrf_failed (REST and a GraphQL mutation); with it, it works', async () => {
    const browser = await signUp();
    const baseId = await upstreamBaseId(app.http, DEMO_BASES.catalog);

    const restRefused = await browser.request('POST', '/usage/bases', { body: { baseId } });
    expect(restRefused.status).toBe(403);
    expect(restRefused.body).toEqual({ code: 'csrf_failed', message: expect.stringContaining('X-CSRF-Token') });
    const wrongToken = await browser.request('POST', '/usage/bases', { body: { baseId }, headers: { 'x-csrf-token': 'x'.repeat(43) } });
    expect(wrongToken.status).toBe(403);
    const restDone = await browser.request('POST', '/usage/bases', { body: { baseId }, csrf: true });
    expect(restDone.status).toBe(201);

    const otherBase = await upstreamBaseId(app.http, DEMO_BASES.marketing);
    const gqlBody = { query: createUsageBase, variables: { input: { baseId: otherBase } } };
    const gqlRefused = await browser.request('POST', '/graphql', { body: gqlBody });
    expect(gqlRefused.status).toBe(403);
    expect(gqlRefused.body.errors[0].extensions.code).toBe('csrf_failed');
    const gqlDone = await browser.request('POST', '/graphql', { body: gqlBody, csrf: true });
    expect(gqlDone.status).toBe(200);
    expect(gqlDone.body).toEqual({ data: { createUsageBase: { usageBase: { baseId: otherBase } } } });

    // A mutation does not hide behind a query in the same document, nor behind a persisted query's hash.
    const twoOperations = { query: `query Look { __typename } ${createUsageBase}`, operationName: 'Track', variables: gqlBody.variables };
    expect((await browser.request('POST', '/graphql', { body: twoOperations })).status).toBe(403);
    const hashOnly = { extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } };
    expect((await browser.request('POST', '/graphql', { body: hashOnly })).status).toBe(403);

    // Reads by cookie need no token: REST, GraphQL over GET, and a GraphQL query sent by POST (Apollo Client's way).
    const list = await browser.request('GET', '/usage/bases');
    expect(list.status).toBe(200);
    expect(list.body.bases.map((b: { baseId: string }) => b.baseId).sort()).toEqual([baseId, otherBase].sort());
    const read = await browser.request(
      'GET',
      `/graphql?query=${encodeURIComponent('{ usageBases(first: 5) { edges { node { baseId } } } }')}`,
      {
        headers: { accept: 'application/json' },
      },
    );
    expect(read.status).toBe(200);
    expect(read.body.data.usageBases.edges).toHaveLength(2);
    const postedRead = await browser.request('POST', '/graphql', {
      body: { query: 'query Bases { usageBases(first: 5) { edges { node { baseId } } } }' },
    });
    expect(postedRead.status).toBe(200);
    expect(postedRead.body.data.usageBases.edges).toHaveLength(2);
  });

  it('an API key needs no token, and an Authorization header wins over the cookie', async () => {
    const { http } = await app.newAccount('keyed');
    const baseId = await upstreamBaseId(http, DEMO_BASES.catalog);
    expect((await http('POST', '/usage/bases', { body: { baseId } })).status).toBe(201);
    const gql = await http('POST', '/graphql', {
      body: { query: createUsageBase, variables: { input: { baseId: await upstreamBaseId(http, DEMO_BASES.marketing) } } },
    });
    expect(gql.status).toBe(200);
    expect(gql.body.errors).toBeUndefined();

    const browser = await signUp();
    const withBadKey = await browser.request('GET', '/usage/bases', {
      headers: { authorization: 'Bearer sk_not_a_real_key_but_long_enough_1234567' },
    });
    expect(withBadKey.status).toBe(401);
    const withKey = await browser.request('POST', '/usage/bases', { body: { baseId }, headers: { authorization: `Bearer ${app.apiKey}` } });
    expect(withKey.status).toBe(201);
    expect((await app.http('GET', '/usage/bases')).body.bases.map((b: { baseId: string }) => b.baseId)).toContain(baseId);
  });
});

describe('sessions list, sign out everywhere, password change', () => {
  it('lists the user’s sessions and ends them all at once', async () => {
    const email = uniqueEmail();
    const first = await signUp(email);
    const second = await signIn(email);
    const listed = await second.request('GET', '/auth/sessions');
    expect(listed.status).toBe(200);
    expect(listed.body.sessions).toHaveLength(2);
    expect(listed.body.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(second.cookie);

    expect((await second.request('DELETE', '/auth/sessions')).status).toBe(403);
    expect((await second.request('DELETE', '/auth/sessions', { csrf: true })).status).toBe(204);
    expect((await first.request('GET', '/auth/session')).status).toBe(401);
    expect((await second.request('GET', '/auth/session')).status).toBe(401);

    // Ended sessions are forgotten at the user's next sign-in: the table holds live sessions only.
    const third = await signIn(email);
    const userId = (await third.request('GET', '/auth/session')).body.user.id;
    expect(await app.running.services.dataSource.getRepository(UserSession).countBy({ userId })).toBe(1);
  });

  it('a password change ends every other session and keeps this browser signed in with a new cookie', async () => {
    const email = uniqueEmail();
    const here = await signUp(email);
    const elsewhere = await signIn(email);
    const oldCookie = here.clone();
    const newPassword = 'another long passphrase';
    secrets.push(newPassword);

    const wrong = await here.request('POST', '/auth/password', { body: { currentPassword: 'not it at all', newPassword }, csrf: true });
    expect(wrong.status).toBe(400);
    const noToken = await here.request('POST', '/auth/password', { body: { currentPassword: PASSWORD, newPassword } });
    expect(noToken.status).toBe(403);
    const changed = await here.request('POST', '/auth/password', { body: { currentPassword: PASSWORD, newPassword }, csrf: true });
    expect(changed.status).toBe(204);
    secrets.push(here.cookie!);
    expect(here.cookie).not.toBe(oldCookie.cookie);

    expect((await elsewhere.request('GET', '/auth/session')).status).toBe(401);
    expect((await oldCookie.request('GET', '/auth/session')).status).toBe(401);
    const current = await here.request('GET', '/auth/session');
    expect(current.status).toBe(200);
    expect(current.body.user.email).toBe(email);

    const old = await createBrowser(app.url).request('POST', '/auth/sign-in', { body: { email, password: PASSWORD } });
    expect(old.status).toBe(401);
    await signIn(email, newPassword);
  });
});

describe('the CLI’s user and its set-password link', () => {
  it('creates a user for an existing account; the link sets the password once and signs in', async () => {
    const { runCli } = await import('../support/cli-process.js');
    const env = { DATABASE_URL: `sqlite:${app.dir}/test.sqlite`, PUBLIC_URL: 'https://basewatch.example.com' };
    const email = uniqueEmail('owner');
    const made = await runCli(['user', 'create', '--email', email, '--account', app.accountId, '--json'], env);
    expect(made.code, made.stderr).toBe(0);
    const created = JSON.parse(made.stdout);
    expect(created).toEqual({
      user: { id: expect.any(String), email },
      account: { id: app.accountId, name: 'first' },
      setPasswordUrl: expect.stringMatching(/^https:\/\/basewatch\.example\.com\/set-password\?token=[A-Za-z0-9_-]{43}$/),
      expiresAt: expect.stringMatching(/Z$/),
    });
    const token = new URL(created.setPasswordUrl).searchParams.get('token')!;
    secrets.push(token);

    const taken = await runCli(['user', 'create', '--email', uniqueEmail(), '--account', app.accountId, '--json'], env);
    expect(taken.code).toBe(1);
    expect(JSON.parse(taken.stdout).error).toContain('has an owner already');

    // No password yet: the same 401 as any wrong pair.
    expect((await createBrowser(app.url).request('POST', '/auth/sign-in', { body: { email, password: PASSWORD } })).status).toBe(401);

    const browser = createBrowser(app.url);
    const weak = await browser.request('POST', '/auth/set-password', { body: { token, password: 'short' } });
    expect(weak.status).toBe(400);
    const set = await browser.request('POST', '/auth/set-password', { body: { token, password: PASSWORD } });
    expect(set.status).toBe(204);
    secrets.push(browser.cookie!);
    const session = await browser.request('GET', '/auth/session');
    expect(session.body.account).toEqual({ id: app.accountId, name: 'first' });
    expect(session.body.user).toEqual(created.user);

    const reused = await createBrowser(app.url).request('POST', '/auth/set-password', {
      body: { token, password: 'yet another passphrase' },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toContain('unknown, used or expired');
    await signIn(email);

    // The link's page is the web application's: opening it logs no token.
    await fetch(created.setPasswordUrl.replace('https://basewatch.example.com', app.url));

    const fresh = JSON.parse((await runCli(['user', 'create', '--email', uniqueEmail('new'), '--json'], env)).stdout);
    expect(fresh.account.id).not.toBe(app.accountId);
    expect(fresh.account.name).toBe(fresh.user.email);
  }, 60_000);
});

describe('nothing secret in a response or a log line', () => {
  it('never shows a password, a session token or a set-password token', () => {
    expect(secrets.length).toBeGreaterThan(10);
    expect(logLines.length).toBeGreaterThan(10);
    const bodies = seenResponses.filter((text) => !text.startsWith('basewatch_session='));
    for (const secret of secrets) {
      for (const line of logLines) expect(line).not.toContain(secret);
      for (const body of bodies) expect(body).not.toContain(secret);
    }
  });
});
