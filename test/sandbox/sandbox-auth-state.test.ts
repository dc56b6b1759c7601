import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_BASE_NAMES, type SandboxLogger, type SandboxOptions } from '../../src/sandbox/index.js';
import {
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
} from './oauth-harness.js';
import { baseIdByName, startSandbox, type SandboxHarness } from './sandbox-harness.js';
import { hooksPath, manualClock } from './webhook-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'basewatch-sandbox-auth-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const quiet: SandboxLogger = { info: () => undefined, warn: () => undefined };

async function restart(harness: SandboxHarness, options: Partial<SandboxOptions>): Promise<SandboxHarness> {
  harness.sandbox.close();
  await harness.close();
  return startSandbox({ logger: quiet, ...options });
}

describe('sandbox state file: users and tokens', () => {
  it('keeps users, collaborators, PATs, OAuth clients and grants across a restart (tokens only as digests), not pending codes', async () => {
    const stateFile = join(dir, 'sandbox-state.json');
    const clock = manualClock();
    const options: Partial<SandboxOptions> = { stateFile, now: clock.now, oauth: { clients: [CONFIDENTIAL] } };
    let harness = await startSandbox({ logger: quiet, ...options });
    const ada = await createUser(harness, 'ada@example.com', 'Ada');
    const crm = await createUserBase(harness, ada.id, 'Ada CRM');
    const catalog = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.catalog);
    await harness.call('POST', `/_control/bases/${catalog}/share`, { body: { userId: ada.id, permissionLevel: 'read' } });
    const limited = await harness.call<{ token: string }>('POST', `/_control/users/${ada.id}/tokens`, {
      body: { scopes: ['data.records:read'], baseIds: [crm.id] },
    });
    const registered = await harness.call('POST', '/_control/oauth/clients', {
      body: { clientId: 'runtime-client', redirectUris: ['http://127.0.0.1:9/cb'] },
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({
      clientId: 'runtime-client',
      confidential: false,
      redirectUris: ['http://127.0.0.1:9/cb'],
      scopes: expect.any(Array),
    });
    const grant = await oauthTokens(harness, {
      userId: ada.id,
      baseIds: [crm.id],
      scopes: 'data.records:read schema.bases:read webhook:manage',
    });
    const hook = await harness.call<{ id: string }>('POST', hooksPath(crm.id), {
      token: grant.access_token,
      body: { specification: { options: { filters: { dataTypes: ['tableData'] } } } },
    });
    await harness.call('PUT', '/_control/oauth/consent', { body: { userId: ada.id, baseIds: [crm.id] } });
    const pkce = newPkce();
    const pending = (await browse(harness, `/oauth2/v1/authorize?${authorizeQuery(CONFIDENTIAL, pkce.challenge)}`)).redirect!.get('code')!;
    const rotated = await tokenCall<Record<string, string>>(
      harness,
      { grant_type: 'refresh_token', refresh_token: grant.refresh_token },
      { basic: [CONFIDENTIAL.clientId, CONFIDENTIAL.clientSecret] },
    );
    expect(rotated.status).toBe(200);
    const before = await harness.call('GET', '/_control/users');

    harness = await restart(harness, { ...options, oauth: { clients: [PUBLIC] } });
    const text = readFileSync(stateFile, 'utf8');
    for (const secret of [
      ada.token,
      limited.body.token,
      rotated.body.access_token!,
      rotated.body.refresh_token!,
      CONFIDENTIAL.clientSecret,
    ]) {
      expect(text).not.toContain(secret);
    }

    expect((await harness.call('GET', '/_control/users')).body).toEqual(before.body);
    expect((await harness.call('GET', '/v0/meta/bases', { token: ada.token })).body).toEqual({
      bases: [
        { id: catalog, name: DEMO_BASE_NAMES.catalog, permissionLevel: 'read' },
        { id: crm.id, name: 'Ada CRM', permissionLevel: 'create' },
      ],
    });
    expect((await harness.call('GET', '/v0/meta/whoami', { token: limited.body.token })).body).toEqual({ id: ada.id });
    expect((await harness.call('GET', '/v0/meta/bases', { token: limited.body.token })).status).toBe(403);
    const token = rotated.body.access_token!;
    expect((await harness.call('GET', '/v0/meta/whoami', { token })).body).toEqual({
      id: ada.id,
      scopes: ['data.records:read', 'schema.bases:read', 'webhook:manage'],
    });
    expect(
      (await harness.call<{ webhooks: Array<{ id: string }> }>('GET', hooksPath(crm.id), { token })).body.webhooks.map((h) => h.id),
    ).toEqual([hook.body.id]);
    expect((await harness.call<{ webhooks: unknown[] }>('GET', hooksPath(crm.id), { token: ada.token })).body.webhooks).toEqual([]);
    expect((await harness.call('GET', '/v0/meta/whoami', { token: grant.access_token })).status).toBe(401);

    // The old refresh token is still in its grace window after the restart; the new one rotates again.
    const conflict = await tokenCall(
      harness,
      { grant_type: 'refresh_token', refresh_token: grant.refresh_token },
      { basic: [CONFIDENTIAL.clientId, CONFIDENTIAL.clientSecret] },
    );
    expect(conflict.status).toBe(409);
    const again = await tokenCall(
      harness,
      { grant_type: 'refresh_token', refresh_token: rotated.body.refresh_token! },
      { basic: [CONFIDENTIAL.clientId, CONFIDENTIAL.clientSecret] },
    );
    expect(again.status).toBe(200);

    // Codes are not kept, nor is the consent shortcut; integrations registered at run time or before are.
    const lost = await tokenCall(
      harness,
      { grant_type: 'authorization_code', code: pending, redirect_uri: CONFIDENTIAL.redirectUris[0]!, code_verifier: pkce.verifier },
      { basic: [CONFIDENTIAL.clientId, CONFIDENTIAL.clientSecret] },
    );
    expect(lost.body).toMatchObject({ error: 'invalid_grant' });
    expect((await harness.call('GET', '/_control/oauth/consent')).body).toEqual({ consent: null });
    const clients = await harness.call<{ clients: Array<{ clientId: string }> }>('GET', '/_control/oauth/clients');
    expect(clients.body.clients.map((client) => client.clientId)).toEqual([CONFIDENTIAL.clientId, 'runtime-client', PUBLIC.clientId]);
    const form = await browse(
      harness,
      `/oauth2/v1/authorize?${authorizeQuery({ clientId: 'runtime-client', redirectUris: ['http://127.0.0.1:9/cb'] }, pkce.challenge)}`,
    );
    expect(form.status).toBe(200);
    expect(form.html).toContain(STATE);

    harness.sandbox.close();
    await harness.close();
  });
});
