import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OAuthClient } from '../../src/upstream/oauth-client.js';
import { ACCESS_TOKEN_LIFETIME_MS, CODE_LIFETIME_MS, REFRESH_TOKEN_LIFETIME_MS } from '../../src/sandbox/index.js';
import {
  AUTHENTICATION_REQUIRED,
  CONFIDENTIAL,
  PUBLIC,
  STATE,
  authorizeQuery,
  browse,
  createUser,
  createUserBase,
  newPkce,
  oauthTokens,
  tokenCall,
  type CreatedBase,
  type CreatedUser,
} from './oauth-harness.js';
import { startSandbox, type SandboxHarness } from './sandbox-harness.js';
import { manualClock } from './webhook-harness.js';

const GRACE_MS = 5_000;
let harness: SandboxHarness;
let clock: ReturnType<typeof manualClock>;
let ada: CreatedUser;
let crm: CreatedBase;

beforeEach(async () => {
  clock = manualClock();
  harness = await startSandbox({ now: clock.now, oauth: { clients: [CONFIDENTIAL, PUBLIC], refreshGraceMs: GRACE_MS } });
  ada = await createUser(harness, 'ada@example.com', 'Ada');
  crm = await createUserBase(harness, ada.id, 'Ada CRM');
});
afterEach(() => harness.close());

const authorizePath = (query: URLSearchParams) => `/oauth2/v1/authorize?${query}`;

/** A code for Ada's CRM through the consent form (both steps), with the verifier that goes with it. */
async function codeThroughForm(client: { clientId: string; redirectUris: string[] } = CONFIDENTIAL, scope?: string) {
  const pkce = newPkce();
  const query = authorizeQuery(client, pkce.challenge, scope ? { scope } : {});
  const form = new URLSearchParams(query);
  form.set('sandbox_user', ada.id);
  form.append('base', crm.id);
  form.set('decision', 'allow');
  const allowed = await browse(harness, '/oauth2/v1/authorize', form);
  expect(allowed.status).toBe(303);
  return { code: allowed.redirect!.get('code')!, verifier: pkce.verifier };
}

const exchange = (code: string, verifier: string, extra: Record<string, string> = {}) =>
  tokenCall(
    harness,
    { grant_type: 'authorization_code', code, redirect_uri: CONFIDENTIAL.redirectUris[0]!, code_verifier: verifier, ...extra },
    { basic: [CONFIDENTIAL.clientId, CONFIDENTIAL.clientSecret] },
  );

const refresh = (refreshToken: string, extra: Record<string, string> = {}) =>
  tokenCall<Record<string, unknown>>(
    harness,
    { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra },
    { basic: [CONFIDENTIAL.clientId, CONFIDENTIAL.clientSecret] },
  );

describe('OAuth authorize', () => {
  it('shows an error page, never a redirect, for an unknown client or redirect URI', async () => {
    const { challenge } = newPkce();
    for (const params of [
      { client_id: 'no-such-client' },
      { redirect_uri: 'https://evil.example/callback' },
      { redirect_uri: `${CONFIDENTIAL.redirectUris[0]}/` },
      { client_id: undefined },
    ]) {
      const page = await browse(harness, authorizePath(authorizeQuery(CONFIDENTIAL, challenge, params)));
      expect(page.status, JSON.stringify(params)).toBe(400);
      expect(page.location).toBeNull();
      expect(page.contentType).toMatch(/^text\/html/);
      expect(page.html).toContain('role="alert"');
    }
  });

  it('redirects with error, error_description and state for the other invalid requests', async () => {
    const { challenge } = newPkce();
    const cases: Array<[Record<string, string | undefined>, string]> = [
      [{ state: 'short-state' }, 'invalid_request'],
      [{ state: `${'x'.repeat(15)}!` }, 'invalid_request'],
      [{ state: undefined }, 'invalid_request'],
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ response_type: undefined }, 'invalid_request'],
      [{ scope: '' }, 'invalid_scope'],
      [{ scope: 'data.records:read data.records:read' }, 'invalid_scope'],
      [{ scope: 'data.records:read no.such:scope' }, 'invalid_scope'],
      [{ scope: 'enterprise.auditLogs:read' }, 'invalid_scope'],
    ];
    for (const [params, error] of cases) {
      const answer = await browse(harness, authorizePath(authorizeQuery(CONFIDENTIAL, challenge, params)));
      expect(answer.status, JSON.stringify(params)).toBe(302);
      expect(answer.location!.startsWith(`${CONFIDENTIAL.redirectUris[0]}?`)).toBe(true);
      expect(answer.redirect!.get('error'), JSON.stringify(params)).toBe(error);
      expect(answer.redirect!.get('error_description')).toBeTruthy();
      expect(answer.redirect!.get('state')).toBe(params.state === undefined && 'state' in params ? null : (params.state ?? STATE));
      expect(answer.redirect!.has('code')).toBe(false);
    }
  });

  it('asks which user, then which of their bases; Allow redirects with code and state, Deny with access_denied', async () => {
    const bob = await createUser(harness, 'bob@example.com');
    await createUserBase(harness, bob.id, 'Bob Secret');
    const { challenge } = newPkce();
    const query = authorizeQuery(CONFIDENTIAL, challenge, { scope: 'data.records:read webhook:manage' });

    const first = await browse(harness, authorizePath(query));
    expect(first.status).toBe(200);
    expect(first.html).toContain('<select id="sandbox_user" name="sandbox_user"');
    expect(first.html).toContain(`<option value="${ada.id}">Ada &#60;ada@example.com&#62;</option>`);
    expect(first.html).toContain(`<option value="${bob.id}">bob@example.com</option>`);
    expect(first.html).toContain('<code>webhook:manage</code>');
    expect(first.html).toContain(`<input type="hidden" name="code_challenge" value="${challenge}">`);

    query.set('sandbox_user', ada.id);
    const second = await browse(harness, authorizePath(query));
    expect(second.status).toBe(200);
    expect(second.html).toContain(
      `<input type="checkbox" id="base-${crm.id}" name="base" value="${crm.id}"> <label for="base-${crm.id}">Ada CRM</label>`,
    );
    expect(second.html).not.toContain('Bob Secret');
    expect(second.html).not.toContain('Acme Product Catalog');
    expect(second.html).toContain('<legend>Bases to grant</legend>');
    expect(second.html).toContain('<form method="post" action="authorize">');

    const form = new URLSearchParams(query);
    form.append('base', crm.id);
    form.set('decision', 'allow');
    const allowed = await browse(harness, '/oauth2/v1/authorize', form);
    expect(allowed.status).toBe(303);
    expect([...allowed.redirect!.keys()].sort()).toEqual(['code', 'state']);
    expect(allowed.redirect!.get('state')).toBe(STATE);

    form.set('decision', 'deny');
    const denied = await browse(harness, '/oauth2/v1/authorize', form);
    expect(denied.status).toBe(303);
    expect(denied.redirect!.get('error')).toBe('access_denied');
    expect(denied.redirect!.get('error_description')).toBeTruthy();
    expect(denied.redirect!.get('state')).toBe(STATE);

    form.set('decision', 'allow');
    form.append('base', (await createUserBase(harness, bob.id, 'Bob Other')).id);
    const foreign = await browse(harness, '/oauth2/v1/authorize', form);
    expect(foreign.status).toBe(400);
    expect(foreign.location).toBeNull();
  });

  it('consents at once with PUT _control/oauth/consent, and shows the form again after DELETE', async () => {
    const set = await harness.call('PUT', '/_control/oauth/consent', { body: { userId: ada.id, baseIds: [crm.id] } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ consent: { userId: ada.id, baseIds: [crm.id], deny: false } });
    const { challenge } = newPkce();
    const answer = await browse(harness, authorizePath(authorizeQuery(CONFIDENTIAL, challenge)));
    expect(answer.status).toBe(302);
    expect(answer.redirect!.get('code')).toBeTruthy();
    expect(answer.redirect!.get('state')).toBe(STATE);
    // Validation still comes first.
    expect((await browse(harness, authorizePath(authorizeQuery(CONFIDENTIAL, challenge, { state: 'short' })))).redirect!.get('error')).toBe(
      'invalid_request',
    );

    await harness.call('PUT', '/_control/oauth/consent', { body: { userId: ada.id, deny: true } });
    expect((await browse(harness, authorizePath(authorizeQuery(CONFIDENTIAL, challenge)))).redirect!.get('error')).toBe('access_denied');

    expect((await harness.call('DELETE', '/_control/oauth/consent')).status).toBe(200);
    expect((await browse(harness, authorizePath(authorizeQuery(CONFIDENTIAL, challenge)))).status).toBe(200);

    const bob = await createUser(harness, 'bob@example.com');
    expect((await harness.call('PUT', '/_control/oauth/consent', { body: { userId: bob.id, baseIds: [crm.id] } })).status).toBe(400);
    expect((await harness.call('PUT', '/_control/oauth/consent', { body: { userId: 'usrNoSuchUser0000', baseIds: [] } })).status).toBe(404);
  });
});

describe('OAuth token', () => {
  it('exchanges a code for tokens that see the granted bases with the granted scopes', async () => {
    const { code, verifier } = await codeThroughForm(CONFIDENTIAL, 'data.records:read schema.bases:read user.email:read');
    const tokens = await exchange(code, verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('cache-control')).toBe('no-store');
    expect(tokens.body).toEqual({
      access_token: expect.stringMatching(/^oaa[A-Za-z0-9]{14}\.v1\.[A-Za-z0-9_-]+\.[0-9a-f]{64}$/),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      scope: 'data.records:read schema.bases:read user.email:read',
      expires_in: 3600,
      refresh_expires_in: 5_184_000,
    });
    const token = tokens.body.access_token;
    const payload = JSON.parse(Buffer.from(token.split('.')[2]!, 'base64url').toString()) as Record<string, string>;
    expect(payload.userId).toBe(ada.id);

    const bases = await harness.call('GET', '/v0/meta/bases', { token });
    expect(bases.body).toEqual({ bases: [{ id: crm.id, name: 'Ada CRM', permissionLevel: 'create' }] });
    expect((await harness.call('GET', `/v0/${crm.id}/Table 1`, { token })).status).toBe(200);
    expect((await harness.call('GET', '/v0/meta/whoami', { token })).body).toEqual({
      id: ada.id,
      email: 'ada@example.com',
      scopes: ['data.records:read', 'schema.bases:read', 'user.email:read'],
    });

    // Replaying the code: invalid_grant.
    const replay = await exchange(code, verifier);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
  });

  it('answers whoami without email when user.email:read was not granted', async () => {
    const tokens = await oauthTokens(harness, { userId: ada.id, baseIds: 'all', scopes: 'data.records:read' });
    expect((await harness.call('GET', '/v0/meta/whoami', { token: tokens.access_token })).body).toEqual({
      id: ada.id,
      scopes: ['data.records:read'],
    });
  });

  it('burns a code on a failed exchange, refuses wrong verifiers, redirect URIs and expired codes', async () => {
    const wrong = await codeThroughForm();
    const refused = await exchange(wrong.code, newPkce().verifier);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_grant' });
    expect((await exchange(wrong.code, wrong.verifier)).body).toMatchObject({ error: 'invalid_grant' });

    const badRedirect = await codeThroughForm();
    expect((await exchange(badRedirect.code, badRedirect.verifier, { redirect_uri: 'https://app.example/other' })).body).toMatchObject({
      error: 'invalid_grant',
    });
    expect((await exchange(badRedirect.code, badRedirect.verifier)).body).toMatchObject({ error: 'invalid_grant' });

    const malformed = await codeThroughForm();
    expect((await exchange(malformed.code, 'too-short')).body).toMatchObject({ error: 'invalid_request' });

    const late = await codeThroughForm();
    clock.advance(CODE_LIFETIME_MS);
    expect((await exchange(late.code, late.verifier)).body).toMatchObject({ error: 'invalid_grant' });

    const inTime = await codeThroughForm();
    clock.advance(CODE_LIFETIME_MS - 1);
    expect((await exchange(inTime.code, inTime.verifier)).status).toBe(200);
  });

  it('authenticates confidential clients with HTTP Basic only and public clients with client_id only', async () => {
    const base = (code: string, verifier: string, client: { redirectUris: string[] }) => ({
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUris[0]!,
      code_verifier: verifier,
    });
    const expectInvalidClient = (answer: { status: number; body: unknown }) => {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    };

    let grant = await codeThroughForm();
    expectInvalidClient(await tokenCall(harness, { ...base(grant.code, grant.verifier, CONFIDENTIAL), client_id: CONFIDENTIAL.clientId }));
    grant = await codeThroughForm();
    expectInvalidClient(
      await tokenCall(harness, base(grant.code, grant.verifier, CONFIDENTIAL), { basic: [CONFIDENTIAL.clientId, 'wrong'] }),
    );
    grant = await codeThroughForm();
    expectInvalidClient(
      await tokenCall(
        harness,
        { ...base(grant.code, grant.verifier, CONFIDENTIAL), client_id: PUBLIC.clientId },
        {
          basic: [CONFIDENTIAL.clientId, CONFIDENTIAL.clientSecret],
        },
      ),
    );
    grant = await codeThroughForm();
    expectInvalidClient(
      await tokenCall(harness, {
        ...base(grant.code, grant.verifier, CONFIDENTIAL),
        client_secret: CONFIDENTIAL.clientSecret,
        client_id: CONFIDENTIAL.clientId,
      }),
    );
    grant = await codeThroughForm();
    const withBoth = await tokenCall(
      harness,
      { ...base(grant.code, grant.verifier, CONFIDENTIAL), client_id: CONFIDENTIAL.clientId },
      {
        basic: [CONFIDENTIAL.clientId, CONFIDENTIAL.clientSecret],
      },
    );
    expect(withBoth.status).toBe(200);

    grant = await codeThroughForm(PUBLIC);
    expectInvalidClient(
      await tokenCall(
        harness,
        { ...base(grant.code, grant.verifier, PUBLIC), client_id: PUBLIC.clientId },
        { basic: [PUBLIC.clientId, 'x'] },
      ),
    );
    grant = await codeThroughForm(PUBLIC);
    expectInvalidClient(await tokenCall(harness, base(grant.code, grant.verifier, PUBLIC)));
    grant = await codeThroughForm(PUBLIC);
    const publicOk = await tokenCall(harness, { ...base(grant.code, grant.verifier, PUBLIC), client_id: PUBLIC.clientId });
    expect(publicOk.status).toBe(200);

    // A code issued to one client cannot be exchanged by another.
    grant = await codeThroughForm(PUBLIC);
    const stolen = await tokenCall(harness, base(grant.code, grant.verifier, PUBLIC), {
      basic: [CONFIDENTIAL.clientId, CONFIDENTIAL.clientSecret],
    });
    expect(stolen.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('URL-decodes client id and secret from HTTP Basic (RFC 6749 §2.3.1), as oauth4webapi and openid-client send them', async () => {
    const client = {
      clientId: '3f1c9a52-8e0b-4d7a-9c61-2b5e7f04ad19',
      clientSecret: 'p+s%/: é-x',
      redirectUris: ['https://app.example/cb'],
    };
    expect((await harness.call('POST', '/_control/oauth/clients', { body: client })).status).toBe(201);
    // Their client_secret_basic: every character but [A-Za-z0-9] percent-encoded, space as +.
    const formEncode = (value: string) =>
      encodeURIComponent(value)
        .replace(/[-_.!~*'()]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
        .replace(/%20/g, '+');
    const { code, verifier } = await codeThroughForm(client);
    const answer = await tokenCall(
      harness,
      { grant_type: 'authorization_code', code, redirect_uri: client.redirectUris[0]!, code_verifier: verifier },
      { basic: [formEncode(client.clientId), formEncode(client.clientSecret)] },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.access_token).toEqual(expect.any(String));

    // basewatch's own client encodes the same way, so a secret with such characters works with the sandbox too.
    const second = await codeThroughForm(client);
    const grant = await new OAuthClient({ url: harness.root, ...client }).exchangeCode({
      code: second.code,
      redirectUri: client.redirectUris[0]!,
      codeVerifier: second.verifier,
    });
    expect(grant.accessToken).toEqual(expect.any(String));
  });

  it('takes form bodies only, and refuses repeated parameters and unknown grant types', async () => {
    const { code, verifier } = await codeThroughForm();
    const json = await tokenCall(
      harness,
      {},
      {
        contentType: 'application/json',
        rawBody: JSON.stringify({ grant_type: 'authorization_code', code, code_verifier: verifier }),
        basic: [CONFIDENTIAL.clientId, CONFIDENTIAL.clientSecret],
      },
    );
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ error: 'invalid_request' });
    const repeated = await tokenCall(
      harness,
      {},
      {
        rawBody: 'grant_type=refresh_token&refresh_token=a&refresh_token=b',
        basic: [CONFIDENTIAL.clientId, CONFIDENTIAL.clientSecret],
      },
    );
    expect(repeated.body).toMatchObject({ error: 'invalid_request' });
    const unknown = await tokenCall(
      harness,
      { grant_type: 'client_credentials' },
      { basic: [CONFIDENTIAL.clientId, CONFIDENTIAL.clientSecret] },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'unsupported_grant_type' });
  });
});

describe('OAuth refresh and expiry', () => {
  it('rotates both tokens: the old access token is refused at once, the old refresh token gets 409 in the grace window, then invalid_grant', async () => {
    const first = await oauthTokens(harness, { userId: ada.id, baseIds: [crm.id], scopes: 'data.records:read schema.bases:read' });
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      scope: 'data.records:read schema.bases:read',
      expires_in: 3600,
      refresh_expires_in: 5_184_000,
    });
    expect(second.body.access_token).not.toBe(first.access_token);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);

    const old = await harness.call('GET', '/v0/meta/bases', { token: first.access_token });
    expect(old.status).toBe(401);
    expect(old.body).toEqual(AUTHENTICATION_REQUIRED);
    expect((await harness.call('GET', '/v0/meta/bases', { token: second.body.access_token as string })).status).toBe(200);

    clock.advance(GRACE_MS - 1);
    const conflict = await refresh(first.refresh_token);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ error: 'conflict', error_description: expect.any(String) });
    clock.advance(1);
    const late = await refresh(first.refresh_token);
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ error: 'invalid_grant' });

    // The rotated pair keeps working; a narrower scope may be asked for, a wider one not.
    expect((await refresh(second.body.refresh_token as string, { scope: 'data.records:read webhook:manage' })).body).toMatchObject({
      error: 'invalid_scope',
    });
    const narrowed = await refresh(second.body.refresh_token as string, { scope: 'data.records:read' });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe('data.records:read');
    expect((await harness.call('GET', '/v0/meta/bases', { token: narrowed.body.access_token as string })).status).toBe(403);
  });

  it('expires access tokens after 60 minutes and refresh tokens after 60 days', async () => {
    const tokens = await oauthTokens(harness, { userId: ada.id, baseIds: [crm.id], scopes: 'schema.bases:read' });
    clock.advance(ACCESS_TOKEN_LIFETIME_MS - 1);
    expect((await harness.call('GET', '/v0/meta/bases', { token: tokens.access_token })).status).toBe(200);
    clock.advance(1);
    const expired = await harness.call('GET', '/v0/meta/bases', { token: tokens.access_token });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(AUTHENTICATION_REQUIRED);
    expect((await harness.call('GET', '/v0/meta/whoami', { token: tokens.access_token })).status).toBe(401);

    const renewed = await refresh(tokens.refresh_token);
    expect(renewed.status).toBe(200);
    expect((await harness.call('GET', '/v0/meta/bases', { token: renewed.body.access_token as string })).status).toBe(200);

    clock.advance(REFRESH_TOKEN_LIFETIME_MS);
    expect((await refresh(renewed.body.refresh_token as string)).body).toMatchObject({ error: 'invalid_grant' });
  });
});
